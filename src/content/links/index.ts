export * from './revision-index.js';
export * from './resolve-link.js';
export * from './link-listing.js';
export * from './stored-ref.js';
export * from './ref-paths.js';
export * from './parseable-template.js';
