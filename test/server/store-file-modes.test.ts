import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { serve } from '../../src/server/serve.js';
import { SQLITE_FILE } from '../../src/server/store/db.js';

// Issue 25, item 7: the SQLite store holds token hashes and the PDF signing secret.
describe('the SQLite store on disk', () => {
  it('creates the database and its WAL files readable by their owner alone (0600)', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'docsync-modes-')), 'data');
    const server = await serve({
      host: '127.0.0.1',
      port: 0,
      dataDir,
      bootstrapToken: 'a-long-enough-bootstrap-token',
      jobIntervalMs: 3_600_000,
    });
    try {
      for (const name of [SQLITE_FILE, `${SQLITE_FILE}-wal`, `${SQLITE_FILE}-shm`]) {
        expect((statSync(join(dataDir, name)).mode & 0o777).toString(8), name).toBe('600');
      }
      expect((statSync(dataDir).mode & 0o777).toString(8)).toBe('700');
    } finally {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('refuses a bootstrap token shorter than 20 characters, saying the minimum', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'docsync-token-'));
    try {
      await expect(serve({ host: '127.0.0.1', port: 0, dataDir, bootstrapToken: 'a' })).rejects.toMatchObject({
        code: 'invalid_request',
        message: expect.stringMatching(/DOCSYNC_BOOTSTRAP_TOKEN must be at least 20 characters/),
      });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
