import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readTemplate, unitEntries } from './templates.js';

function systemdAnalyze(): string | undefined {
  try {
    return execFileSync('sh', ['-c', 'command -v systemd-analyze'], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

const ANALYZE = systemdAnalyze();

describe('templates/systemd/docsync-watch.service', () => {
  let text: string;
  let value: (section: string, key: string) => string[];
  beforeAll(async () => {
    text = await readTemplate('systemd');
    const entries = unitEntries(text);
    value = (section, key) => entries.filter((e) => e.section === section && e.key === key).map((e) => e.value);
  });

  it('is a user unit that restarts on failure and stops cleanly with SIGTERM', () => {
    expect(value('Service', 'Type')).toEqual(['exec']);
    expect(value('Service', 'Restart')).toEqual(['on-failure']);
    // watch exits 0 on SIGTERM after the batch in flight: the stop must wait for that batch.
    expect(value('Service', 'KillSignal')).toEqual(['SIGTERM']);
    expect(Number(value('Service', 'TimeoutStopSec')[0])).toBeGreaterThanOrEqual(30);
    // A user unit runs as its user: User= would be refused by the user manager.
    expect(value('Service', 'User')).toEqual([]);
    expect(value('Install', 'WantedBy')).toEqual(['default.target']);
  });

  it('takes credentials from an optional environment file in the home folder, else the login file', () => {
    expect(value('Service', 'EnvironmentFile')).toEqual(['-%h/.config/docsync/env']);
    expect(text).toContain('~/.config/docsync/credentials.json');
    expect(text).not.toMatch(/DOCSYNC_TOKEN=\S/);
  });

  it('marks every line a user must edit', () => {
    const edits = text.split('\n').filter((line) => line.startsWith('# EDIT:'));
    expect(edits).toHaveLength(2);
    expect(value('Service', 'ExecStart')[0]).toContain('%h/docs');
  });

  // Skipped with its reason in its name where the binary is missing; every other check runs.
  describe.skipIf(ANALYZE === undefined)(ANALYZE ? 'systemd-analyze verify' : 'systemd-analyze verify (skipped: systemd-analyze is not installed on this machine)', () => {
    let dir: string;
    // verify warns on stderr and still exits 0: both streams are the verdict. Without a running
    // user manager (CI) it needs a runtime folder of its own.
    const verify = (unit: string) => {
      const result = spawnSync(ANALYZE!, ['--user', 'verify', unit], { encoding: 'utf8', env: { ...process.env, XDG_RUNTIME_DIR: join(dir, 'runtime') } });
      return { code: result.status, output: `${result.stdout}${result.stderr}` };
    };
    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'docsync-systemd-'));
      execFileSync('mkdir', ['-m', '0700', join(dir, 'runtime')]);
    });
    afterAll(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    it('accepts the unit with no warning', async () => {
      const unit = join(dir, 'docsync-watch.service');
      await writeFile(unit, text);
      expect(verify(unit)).toEqual({ code: 0, output: '' });
    });

    it('does warn about a broken copy (so no output above means no problem)', async () => {
      const unit = join(dir, 'docsync-watch.service');
      await writeFile(unit, text.replace('Restart=on-failure', 'Restart=on-failur'));
      expect(verify(unit).output).toMatch(/Restart|restart/);
    });
  });
});
