export * from './errors.js';
export * from './roles.js';
export * from './common.js';
export * from './user.js';
export * from './organization.js';
export * from './space.js';
export * from './collection.js';
export * from './links.js';
