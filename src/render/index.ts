export type * from './types.js';
export { renderPage } from './render-page.js';
export { resolveLink, assetUrl, type ResolvedLink } from './links.js';
export { siteIndex, type SiteIndex } from './site-index.js';
export { SANITIZE_SCHEMA } from './sanitize-schema.js';
export { renderDocument, type DocumentOptions } from './layout/document.js';
export { navigationHtml, neighbours } from './layout/navigation.js';
export { escapeHtml } from './layout/escape.js';
