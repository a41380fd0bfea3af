// The three fixture receipts, plus the same content as a neutral list of operations that the peer
// adapters replay through each library's own API (built once, outside the timed loops).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

export const FIXTURES = ['small', 'nfce', 'report'];

export function loadReceipt(name) {
  return readFileSync(`${root}fixtures/${name}.txt`, 'utf8');
}

const TAG = /<(textAlignLeft|textAlignCenter|textAlignRight|textCondensedOn|textCondensedOff|paperCutFull|paperCutPartial|cashDrawerOpen|paperFeed)>|<qrcode>([\s\S]*?)<\/qrcode>/g;

/**
 * conteudo → [{ op: 'align', value } | { op: 'condensed', on } | { op: 'line', text }
 *            | { op: 'qr', data } | { op: 'cut', partial } | { op: 'drawer' } | { op: 'feed' }].
 * Text is split into whole lines (what the peers' `line()`/`println()` take).
 */
export function toOps(src) {
  const ops = [];
  let pending = '';
  const text = (t) => {
    const parts = (pending + t).split('\n');
    pending = parts.pop();
    for (const line of parts) ops.push({ op: 'line', text: line });
  };
  const flush = () => { if (pending) { ops.push({ op: 'line', text: pending }); pending = ''; } };
  let last = 0;
  for (const m of src.matchAll(TAG)) {
    text(src.slice(last, m.index));
    last = m.index + m[0].length;
    const tag = m[1];
    if (m[2] !== undefined) { flush(); ops.push({ op: 'qr', data: m[2] }); continue; }
    if (tag.startsWith('textAlign')) ops.push({ op: 'align', value: tag.slice(9).toLowerCase() });
    else if (tag === 'textCondensedOn') ops.push({ op: 'condensed', on: true });
    else if (tag === 'textCondensedOff') ops.push({ op: 'condensed', on: false });
    else if (tag.startsWith('paperCut')) { flush(); ops.push({ op: 'cut', partial: tag === 'paperCutPartial' }); }
    else if (tag === 'cashDrawerOpen') ops.push({ op: 'drawer' });
    else if (tag === 'paperFeed') { flush(); ops.push({ op: 'feed' }); }
  }
  text(src.slice(last));
  flush();
  return ops;
}

/** A receipt of `lines` text lines in the style of the report fixture (for the linearity table). */
export function linesReceipt(lines) {
  const report = loadReceipt('report').split('\n').filter((l) => l.length > 0 && !l.includes('paperCut'));
  const out = [];
  for (let i = 0; i < lines; i++) out.push(report[i % report.length]);
  return out.join('\n') + '\n<paperCutFull>';
}
