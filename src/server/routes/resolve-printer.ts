// Spec §4.4 rules 1-4: which printer template an Insert prints with. impressoraId and terminalId
// exclude each other; codigoImpressora (id or code) wins; a terminal alone uses its linked printer.
import { loadProfile, ProfileError, type Profile } from '../../index.js';
import { Problem } from '../errors.js';
import type { InsertBody } from '../schemas/intentions.js';
import type { Store } from '../store/repositories.js';

const present = <T>(v: T | null | undefined): v is T => v !== undefined && v !== null && v !== '';

function template(ref: string | number): Profile {
  try {
    return loadProfile(typeof ref === 'string' ? ref.trim() : ref);
  } catch (err) {
    if (err instanceof ProfileError) throw new Problem('unknown-printer', { printer: ref });
    throw err;
  }
}

export async function resolvePrinter(store: Store, accountId: string, body: InsertBody): Promise<Profile> {
  const { terminalId, impressoraId, codigoImpressora } = body;
  if (present(terminalId) && present(impressoraId)) throw new Problem('printer-conflict');
  let linked: number | undefined;
  if (present(terminalId)) {
    const terminal = await store.terminals.find(accountId, terminalId);
    if (!terminal) throw new Problem('terminal-not-found', { terminalId });
    if (!terminal.enabled) throw new Problem('terminal-disabled', { terminalId });
    linked = terminal.printerId ?? undefined;
  }
  if (present(codigoImpressora)) return template(codigoImpressora);
  if (present(impressoraId)) return template(impressoraId);
  if (linked !== undefined) return template(linked);
  // A terminal was named, but it has no printer; impressoraId with it is printer-conflict, so only codigoImpressora is left.
  if (present(terminalId)) throw new Problem('printer-required', { terminalId }, 'This terminal has no linked printer: name one with codigoImpressora');
  throw new Problem('printer-required');
}
