// A lowering context for tests that call one construct's lowering directly, as lowerRaw makes it.
import type { RawDiagnostic } from '../../src/diagnostics.js';
import type { Op, Profile } from '../../src/index.js';
import { initialState, type LowerContext } from '../../src/lower/context.js';
import type { LowerOptions } from '../../src/lower/index.js';
import { codepage } from '../../src/text/codepage.js';

export function lowerContext(profile: Profile, options: LowerOptions = {}, out: Op[] = []): LowerContext & { diagnostics: RawDiagnostic[] } {
  const diagnostics: RawDiagnostic[] = [];
  return {
    profile,
    out,
    diagnostics,
    text: { codepage: codepage(profile.codepage.encoding), printer: profile.printer, diagnostics },
    state: initialState(),
    ...options,
  };
}
