// An AST node written the way grammar/conteudo.ebnf's examples write it: text "…", command <name>,
// qrcode "<payload>" [size=N ecc=E], textSize width=W height=H, barcode <type> "<data>" height=H
// module=M text=T, image "<src>" [width=W] dither=D, row [cell …, …], rule "<char>".
import type { CellNode, Node } from '../../src/index.js';

const q = (s: string) => JSON.stringify(s);

function cell(c: CellNode): string {
  const width = 'columns' in c.width ? `width=${c.width.columns}` : `width=${c.width.share}*`;
  return `cell ${width} ${c.align} ${q(c.text)}`;
}

export function nodeText(n: Node): string {
  switch (n.type) {
    case 'text':
      return `text ${q(n.value)}`;
    case 'command':
      return `command ${n.command}`;
    case 'qrcode':
      return [`qrcode ${q(n.data)}`, ...(n.size !== undefined ? [`size=${n.size}`] : []), ...(n.ecc !== undefined ? [`ecc=${n.ecc}`] : [])].join(' ');
    case 'textSize':
      return `textSize width=${n.width} height=${n.height}`;
    case 'barcode':
      return `barcode ${n.symbology} ${q(n.data)} height=${n.height} module=${n.module} text=${n.text}`;
    case 'image':
      return [`image ${q(n.src)}`, ...(n.width !== undefined ? [`width=${n.width}`] : []), `dither=${n.dither}`].join(' ');
    case 'row':
      return `row [${n.cells.map(cell).join(', ')}]`;
    case 'rule':
      return `rule ${q(n.char)}`;
  }
}
