// The headers every answer carries, so that a browser never sniffs a JSON body into HTML, never
// sends the service's URLs (they may hold `?key=`) to another site, and never shows a page of the
// service inside another site's frame; and the Content-Security-Policy of the API docs page.

/** On every answer (the raw ones of client-errors.ts too). */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
};

/** The policy of an answer that sets none of its own (JSON has nothing to run: only framing matters). */
export const DEFAULT_CSP = "frame-ancestors 'none'";

/**
 * /docs (Swagger UI): its own scripts only (it has no inline script), its own styles and the inline
 * <style> it adds while rendering, data: images and fonts, requests to this origin (the OpenAPI
 * document, "Try it out"), no frames, no plugins.
 */
export const DOCS_CSP = [
  "default-src 'self'", "base-uri 'self'", "connect-src 'self'", "font-src 'self' data:", "form-action 'self'", "frame-ancestors 'none'",
  "img-src 'self' data:", "object-src 'none'", "script-src 'self'", "script-src-attr 'none'", "style-src 'self' 'unsafe-inline'",
].join('; ');

/**
 * /console: its own scripts and styles only (no inline script, no style attribute: no
 * 'unsafe-inline'), requests to this origin only, the preview as a blob: image (an SVG drawn as an
 * image runs nothing, and its own <style> is not the page's), no frames, no plugins, no form posts;
 * and no string ever parsed as markup or code (Trusted Types with no policy: the page builds its
 * elements and sets text, so an innerHTML anywhere would be refused, not run).
 */
export const CONSOLE_CSP = [
  "default-src 'none'", "base-uri 'none'", "connect-src 'self'", "form-action 'none'", "frame-ancestors 'none'",
  "img-src 'self' blob:", "object-src 'none'", "script-src 'self'", "script-src-attr 'none'", "style-src 'self'",
  "require-trusted-types-for 'script'", "trusted-types 'none'",
].join('; ');
