import type { Person } from '../git/index.js';

/** The author of commits docsync makes itself (snapshots, merges, saved edits). */
export const DOCSYNC_AUTHOR: Person = { name: 'docsync', email: 'docsync@localhost' };
