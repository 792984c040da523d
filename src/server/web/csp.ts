import { createHash } from 'node:crypto';
import { PAGE_SCRIPT, STYLES } from '../../render/index.js';
import { APP_STYLES } from './styles.js';
import { IDIOMORPH_SOURCE, LIVE_SCRIPT } from './live.js';

const hash = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/**
 * The Content-Security-Policy of every HTML answer. Scripts: only the renderer's own inline
 * script and the app pages' live updates (idiomorph and live.ts's script), by hash (no other inline script, no script file, no eval); style elements: the
 * renderer's and the app's by hash, and this server's style sheets (KaTeX's); style attributes
 * are allowed (KaTeX positions glyphs with them; the sanitiser already decides which content
 * keeps one). Nothing may frame the pages, forms post only here, no plugin, no `<base>`.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  `script-src ${hash(PAGE_SCRIPT)} ${hash(IDIOMORPH_SOURCE)} ${hash(LIVE_SCRIPT)}`,
  `style-src-elem 'self' ${hash(STYLES)} ${hash(APP_STYLES)}`,
  "style-src-attr 'unsafe-inline'",
  "img-src 'self' https: data:",
  "font-src 'self'",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "object-src 'none'",
].join('; ');
