import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DOCSYNC_EXTENSIONS } from '../../src/model/index.js';
import { WITHOUT_EXTENSION } from '../../src/sync/index.js';
import { hostedFixture } from './hosted-fixture.js';
import { jsonOf, runCli } from './run-cli.js';

/** `docsync doctor` against our server directly and through the hosted-API emulation. */
describe('docsync doctor', () => {
  const h = hostedFixture();

  it('against our server: the workspace URL, the signed-in user, every extension, nothing it cannot round-trip', async () => {
    const t = await h.clone('direct', { apiUrl: h.s.url });
    const env = { ...t.env, DOCSYNC_API_URL: undefined };
    const out = await runCli(['doctor', '--dir', t.dir], env);
    expect(out.code, out.stderr).toBe(0);
    const lines = out.stdout.split('\n');
    expect(lines[0]).toBe(`server: ${h.s.url} (from the workspace ${t.dir})`);
    expect(lines[1]).toMatch(/^reachable: yes, signed in as .+ <.+@.+>$/);
    expect(lines[2]).toBe(`space: direct (${t.spaceId})`);
    expect(lines[3]).toBe(`extensions: ${[...DOCSYNC_EXTENSIONS].sort().join(', ')}`);
    expect(lines[4]).toBe('round-trips everything docsync writes');

    const json = jsonOf(await runCli(['doctor', '--dir', t.dir, '--json'], env));
    expect(json).toMatchObject({
      apiUrl: h.s.url,
      source: 'workspace',
      reachable: true,
      space: { id: t.spaceId, title: 'direct' },
      limits: [],
    });
    expect(json.extensions).toEqual([...DOCSYNC_EXTENSIONS].sort());
  });

  it('through the hosted API: no extensions, and every limit that follows, named', async () => {
    const t = await h.clone('hosted');
    const out = await runCli(['doctor', '--dir', t.dir], t.env);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toContain(`server: ${h.proxy.url} (from DOCSYNC_API_URL)`);
    expect(out.stdout).toContain('extensions: none (the published API only, as the hosted GitBook API)');
    expect(out.stdout).toContain('cannot round-trip here:\n  - group and link pages');
    for (const extension of DOCSYNC_EXTENSIONS) expect(out.stdout).toContain(`(needs ${extension})`);

    const json = jsonOf(await runCli(['doctor', '--dir', t.dir, '--json'], t.env));
    expect(json.extensions).toEqual([]);
    expect(json.limits).toEqual(DOCSYNC_EXTENSIONS.map((extension) => ({ extension, without: WITHOUT_EXTENSION[extension] })));
    // Published operations only: the emulation refuses anything else with 404 or 400.
    expect(h.proxy.statuses.filter((status) => status >= 400)).toEqual([]);
  });

  it('outside a workspace checks the login alone', async () => {
    const json = jsonOf(
      await runCli(['doctor', '--dir', h.home, '--json'], {
        XDG_CONFIG_HOME: join(h.home, 'config'),
        DOCSYNC_API_URL: h.s.url,
        DOCSYNC_TOKEN: h.s.token,
      }),
    );
    expect(json).toMatchObject({ apiUrl: h.s.url, source: 'DOCSYNC_API_URL', reachable: true, space: null });
  });

  it('names the server it could not reach, or that refused the token, and exits 1', async () => {
    const config = { XDG_CONFIG_HOME: join(h.home, 'config') };
    const refused = await runCli(['doctor', '--dir', h.home], { ...config, DOCSYNC_API_URL: h.proxy.url, DOCSYNC_TOKEN: 'not-a-token' });
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe(`server: ${h.proxy.url} (from DOCSYNC_API_URL)\n`);
    expect(refused.stderr).toMatch(/^docsync: .*token/);
    expect(refused.stderr).not.toContain('not-a-token');

    const away = await runCli(['doctor', '--dir', h.home], { ...config, DOCSYNC_API_URL: 'http://127.0.0.1:9', DOCSYNC_TOKEN: h.s.token });
    expect(away.code).toBe(1);
    expect(away.stdout).toBe('server: http://127.0.0.1:9 (from DOCSYNC_API_URL)\n');
    expect(away.stderr).toMatch(/^docsync: /);
    expect(away.stderr).not.toContain('internal error');
  });
});
