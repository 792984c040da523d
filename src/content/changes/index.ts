export { applyChanges } from './apply.js';
export { DEFAULT_TITLE } from './insert-page.js';
export type { ApplyContext, ApplyFailure, ApplyResult, ApplySuccess, PageOutcome, PreparedFile } from './types.js';
export { readSubmittedDocument } from './document.js';
export { patchPageFrontMatter } from './front-matter-text.js';
