import { describe, expect, it } from 'vitest';
import { sqliteDriver } from '../../src/server/store/sqlite/driver.js';

// Issue 24, Node versions: better-sqlite3 aborts on Node 24 (its statements are ObjectWraps whose
// destructor needs a current environment); Node 24 and later use node:sqlite.
describe('the SQLite driver for a Node version', () => {
  it('is better-sqlite3 on Node 20 and 22, node:sqlite from Node 24', () => {
    expect(sqliteDriver('v20.20.2', undefined)).toBe('better-sqlite3');
    expect(sqliteDriver('v22.23.3', undefined)).toBe('better-sqlite3');
    expect(sqliteDriver('v24.21.0', undefined)).toBe('node:sqlite');
    expect(sqliteDriver('v26.0.0', '')).toBe('node:sqlite');
  });

  it('follows DOCSYNC_SQLITE_DRIVER, and names a wrong value', () => {
    expect(sqliteDriver('v24.21.0', 'better-sqlite3')).toBe('better-sqlite3');
    expect(sqliteDriver('v22.23.3', 'node:sqlite')).toBe('node:sqlite');
    expect(() => sqliteDriver('v22.23.3', 'sqlite3')).toThrow('DOCSYNC_SQLITE_DRIVER must be better-sqlite3 or node:sqlite, got "sqlite3"');
  });
});
