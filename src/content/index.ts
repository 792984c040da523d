export * from './merge/merge-text.js';
export * from './tree/slugs.js';
export * from './markdown/processor.js';
export * from './markdown/links.js';
export * from './markdown/sections.js';
