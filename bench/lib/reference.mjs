// The hand-written single-pass reference encoder: the ceiling for this work in JavaScript.
// indexOf over the tags, a CP850 lookup table, one preallocated Uint8Array. It implements the
// same semantics as bobina for the T20 with native Epson QR (byte-identical on the fixtures), but
// none of bobina's structure: no lexer, no AST, no IR, no spans, no records.
import iconv from 'iconv-lite';

const CP850 = (() => {
  const all = Buffer.alloc(256);
  for (let b = 0; b < 256; b++) all[b] = b;
  const decoded = iconv.decode(all, 'cp850');
  const table = new Int16Array(65536).fill(-1);
  for (let b = 0; b < 256; b++) {
    const c = decoded.charCodeAt(b);
    if (c !== 0xfffd && table[c] === -1) table[c] = b;
  }
  return table;
})();

// The transliterations the fixtures need (typographic dashes and quotes) — the rest become "?".
const TRANSLIT = new Map([
  [0x2013, '-'], [0x2014, '-'], [0x2018, "'"], [0x2019, "'"], [0x201c, '"'], [0x201d, '"'],
  [0x2026, '...'], [0x20ac, 'EUR'], [0x00a0, ' '],
]);

const TAGS = new Map([
  ['textAlignLeft', [0x1b, 0x61, 0x00]],
  ['textAlignCenter', [0x1b, 0x61, 0x01]],
  ['textAlignRight', [0x1b, 0x61, 0x02]],
  ['textCondensedOn', [0x1b, 0x4d, 0x01]],
  ['textCondensedOff', [0x1b, 0x4d, 0x00]],
  ['paperCutFull', null],
  ['paperCutPartial', null],
  ['cashDrawerOpen', [0x1b, 0x70, 0x00, 0x32, 0xc8]],
  ['paperFeed', [0x1b, 0x64, 0x03]],
]);

const QR_CLOSE = '</qrcode>';

/** conteudo → ESC/POS bytes for an Epson TM-T20 with native QR (module 6, ECC M). */
export function referenceEncode(src, diagnostics = []) {
  // Worst case per UTF-16 unit is 3 bytes ("..."/"EUR"); QR adds fixed headers.
  let buf = new Uint8Array(src.length * 3 + 64);
  let at = 0;
  buf[at++] = 0x1b; buf[at++] = 0x40; buf[at++] = 0x1b; buf[at++] = 0x74; buf[at++] = 0x02;
  let atLineStart = true;
  let pos = 0;
  const n = src.length;
  while (pos < n) {
    let lt = src.indexOf('<', pos);
    if (lt < 0) lt = n;
    if (lt > pos) {
      // text run [pos, lt)
      const startAt = at;
      for (let i = pos; i < lt; i++) {
        const c = src.charCodeAt(i);
        if ((c >= 0x20 && c < 0x7f) || c === 10 || c === 9) { buf[at++] = c; continue; }
        if (c === 13) { if (src.charCodeAt(i + 1) !== 10) buf[at++] = 10; continue; }
        if (c < 0x20 || (c >= 0x7f && c < 0xa0)) { diagnostics.push({ code: 'text/control-removed', start: i }); continue; }
        const b = CP850[c];
        if (b >= 0) { buf[at++] = b; continue; }
        const alt = TRANSLIT.get(c);
        diagnostics.push({ code: alt ? 'text/transliterated' : 'text/replaced', start: i });
        if (alt) for (let k = 0; k < alt.length; k++) buf[at++] = alt.charCodeAt(k);
        else buf[at++] = 0x3f;
      }
      if (at > startAt) atLineStart = buf[at - 1] === 10;
      pos = lt;
      if (pos >= n) break;
    }
    // at '<'
    const gt = src.indexOf('>', pos);
    const name = gt > 0 ? src.slice(pos + 1, gt) : '';
    if (name === 'qrcode') {
      const close = src.indexOf(QR_CLOSE, gt);
      const end = close < 0 ? n : close;
      const data = Buffer.from(src.slice(gt + 1, end), 'utf8');
      if (!atLineStart) { buf[at++] = 10; atLineStart = true; }
      if (at + data.length + 64 > buf.length) { const next = new Uint8Array((at + data.length) * 2 + 64); next.set(buf); buf = next; }
      buf.set([0x1d, 0x28, 0x6b, 0x04, 0x00, 0x31, 0x41, 0x32, 0x00, 0x1d, 0x28, 0x6b, 0x03, 0x00, 0x31, 0x43, 6,
        0x1d, 0x28, 0x6b, 0x03, 0x00, 0x31, 0x45, 0x31], at);
      at += 25;
      const k = data.length + 3;
      buf[at++] = 0x1d; buf[at++] = 0x28; buf[at++] = 0x6b; buf[at++] = k & 0xff; buf[at++] = k >> 8;
      buf[at++] = 0x31; buf[at++] = 0x50; buf[at++] = 0x30;
      buf.set(data, at);
      at += data.length;
      buf.set([0x1d, 0x28, 0x6b, 0x03, 0x00, 0x31, 0x51, 0x30], at);
      at += 8;
      pos = close < 0 ? n : close + QR_CLOSE.length;
      continue;
    }
    const bytes = TAGS.get(name);
    if (bytes === undefined) {
      buf[at++] = 0x3c; // a '<' that starts no known tag is text
      atLineStart = false;
      pos++;
      continue;
    }
    if (bytes === null) {
      if (!atLineStart) { buf[at++] = 10; atLineStart = true; }
      buf[at++] = 0x1d; buf[at++] = 0x56; buf[at++] = name === 'paperCutFull' ? 0x41 : 0x42; buf[at++] = 0x00;
    } else {
      for (let k = 0; k < bytes.length; k++) buf[at++] = bytes[k];
      if (name === 'paperFeed') atLineStart = true;
    }
    pos = gt + 1;
  }
  if (!atLineStart) buf[at++] = 10;
  return buf.subarray(0, at);
}
