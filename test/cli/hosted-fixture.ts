import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { hostedProxy, type HostedProxy, type HostedProxyOptions } from '../helpers/hosted-proxy.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { editMain } from '../sync/fixture.js';
import { runCli } from './run-cli.js';

export interface HostedFixture {
  s: TestServer;
  proxy: HostedProxy;
  home: string;
  /**
   * A new space with `pages` on main (default: Alpha, the README), cloned by the CLI through
   * `apiUrl` (default: the proxy) into `home/<name>`; `env` runs later commands the same way.
   */
  clone(
    name: string,
    options?: { apiUrl?: string; pages?: unknown[] },
  ): Promise<{ spaceId: string; dir: string; env: Record<string, string>; ids: Map<string, string> }>;
}

/**
 * For a describe block: a server, the hosted-API emulation in front of it (test/helpers/hosted-proxy.ts)
 * and a home folder, started before its tests and closed after. Read the fields inside tests.
 */
export function hostedFixture(options: HostedProxyOptions = {}): HostedFixture {
  const fixture = {} as HostedFixture;
  beforeAll(async () => {
    fixture.s = await startServer('sqlite');
    fixture.proxy = await hostedProxy(fixture.s.url, options);
    fixture.home = await mkdtemp(join(tmpdir(), 'docsync-cli-hosted-'));
  });
  afterAll(async () => {
    await fixture.proxy?.close();
    await fixture.s?.close();
    if (fixture.home) await rm(fixture.home, { recursive: true, force: true });
  });
  fixture.clone = async (name, { apiUrl, pages } = {}) => {
    const { s, home } = fixture;
    const space = (await s.request('POST', `/v1/orgs/${s.orgId}/spaces`, { body: { title: name, empty: true } })).body;
    const ids = await editMain(
      s,
      space.id,
      pages ?? [{ operation: 'insert_page', ref: 'a', title: 'Alpha', document: { markdown: '# Alpha\n\none\n' } }],
    );
    const dir = join(home, name);
    const env = { XDG_CONFIG_HOME: join(home, 'config'), DOCSYNC_API_URL: apiUrl ?? fixture.proxy.url, DOCSYNC_TOKEN: s.token };
    const result = await runCli(['clone', space.id, dir], env);
    expect(result.code, result.stderr).toBe(0);
    return { spaceId: space.id as string, dir, env, ids };
  };
  return fixture;
}
