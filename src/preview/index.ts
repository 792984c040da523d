export { startPreview, type Preview, type PreviewOptions } from './server.js';
export type { SpecResolver } from './openapi.js';
export { PreviewState, type PreviewChange } from './state.js';
export { previewSite, urlOfPath, type PreviewSite } from './site.js';
export { problemLine, type PreviewProblem } from './overlay.js';
