export * from './revision-index.js';
export * from './resolve-link.js';
export * from './link-listing.js';
