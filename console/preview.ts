// A job's preview, drawn in the page from the bytes the service stored (GET
// /IntencaoImpressao/GetBytes) by the library's own renderer, as `bobina preview` draws it. The
// library is imported only here, on the first preview (./lib/index.js beside the page), so opening
// the console loads none of the compiler. The SVG is shown as a blob: image: an image runs nothing
// and its own <style> needs no 'unsafe-inline' in the page's policy.
import { bytes } from './api.js';
import { h } from './dom.js';

let current: string | undefined;

/** Draws job `id` into `host`; resolves with the printer it was drawn for. */
export async function drawPreview(id: number, host: HTMLElement): Promise<string> {
  const [{ bytes: data, printer }, { renderSvg }] = await Promise.all([
    bytes('/IntencaoImpressao/GetBytes', { intencaoImpressaoId: id }),
    import('bobina'),
  ]);
  const svg = renderSvg(data, { printer });
  if (current) URL.revokeObjectURL(current);
  current = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
  const img = h('img', { src: current, alt: `Preview of job #${id} as the ${printer} prints it (${data.length} bytes)`, 'data-printer': printer });
  host.replaceChildren(img);
  await img.decode().catch(() => undefined);
  return printer;
}
