export * from './merge/merge-text.js';
export * from './tree/slugs.js';
export * from './markdown/processor.js';
export * from './markdown/links.js';
export * from './markdown/sections.js';
export * from './tree/paths.js';
export * from './tree/page-tree.js';
export * from './markdown/json-document.js';
