export { localSpecFiles, type OpenApiFiles } from './spec-files.js';
export { schemasMarkdown } from './schema-markdown.js';
export { findOperation, findWebhook, operationMarkdown, HTTP_METHODS, type HttpMethod, type Operation } from './operations.js';
export { referencePages, type GeneratedPage, type ReferenceOptions } from './reference-pages.js';
