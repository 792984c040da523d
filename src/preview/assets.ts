import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { PREVIEW_CLIENT } from './client-script.js';

export const PREVIEW_CLIENT_URL = '/_docsync/preview.js';
export const IDIOMORPH_URL = '/_docsync/idiomorph.js';
export const KATEX_CSS_URL = '/_docsync/katex/katex.min.css';

const require = createRequire(import.meta.url);
const KATEX_DIST = `${dirname(require.resolve('katex/dist/katex.min.css'))}/`;
const IDIOMORPH = require.resolve('idiomorph/dist/idiomorph.min.js');

/** The preview's own files: its script (in memory), idiomorph and KaTeX (from their packages). */
export function previewAsset(url: string): { body?: string; file?: string; type: string } | undefined {
  if (url === PREVIEW_CLIENT_URL) return { body: PREVIEW_CLIENT, type: 'text/javascript; charset=utf-8' };
  if (url === IDIOMORPH_URL) return { file: IDIOMORPH, type: 'text/javascript; charset=utf-8' };
  const katex = /^\/_docsync\/katex\/((?:fonts\/)?[\w.-]+\.(css|woff2|woff|ttf))$/.exec(url);
  if (katex)
    return {
      file: KATEX_DIST + katex[1],
      type: { css: 'text/css; charset=utf-8', woff2: 'font/woff2', woff: 'font/woff', ttf: 'font/ttf' }[katex[2]!]!,
    };
  return undefined;
}
