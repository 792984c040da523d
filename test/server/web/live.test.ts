import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { IDIOMORPH_SOURCE, LIVE_SCRIPT } from '../../../src/server/web/live.js';
import { startServer, testDialects, type TestServer } from '../../helpers/server.js';
import { WebClient } from '../../helpers/web.js';
import { spaceWithPages } from '../../helpers/web-content.js';
import { EVENT_WAIT_MS, PROCESS_TEST_MS } from '../../helpers/patience.js';

// Processes or servers started and their events waited on: minutes on a loaded machine (test/helpers/patience.ts).
vi.setConfig({ testTimeout: PROCESS_TEST_MS, hookTimeout: PROCESS_TEST_MS });

const cspHash = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** The events of a server-sent event stream as they come, read with the session's cookie. */
async function openStream(web: WebClient, path: string) {
  const controller = new AbortController();
  const res = await fetch(`${web.base}${path}`, {
    headers: { cookie: [...web.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
    signal: controller.signal,
    redirect: 'manual',
  });
  const events: { event: string; data: any }[] = [];
  let ended = false;
  if (res.status === 200) {
    void (async () => {
      const decoder = new TextDecoder();
      let buffer = '';
      try {
        for await (const chunk of res.body!) {
          buffer += decoder.decode(chunk as Uint8Array, { stream: true });
          for (let at = buffer.indexOf('\n\n'); at >= 0; at = buffer.indexOf('\n\n')) {
            const block = buffer.slice(0, at);
            buffer = buffer.slice(at + 2);
            const event = /^event: (.*)$/m.exec(block)?.[1];
            const data = /^data: (.*)$/m.exec(block)?.[1];
            if (event && data) events.push({ event, data: JSON.parse(data) });
          }
        }
      } catch {
        // aborted
      }
      ended = true;
    })();
  }
  return { res, events, ended: () => ended, close: () => controller.abort() };
}

async function until(check: () => boolean, what: string) {
  for (const end = Date.now() + EVENT_WAIT_MS; !check();) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe.each(testDialects())('live app pages (%s)', (dialect) => {
  let server: TestServer;
  let space: { id: string; urls: { app: string } };
  let pageId: string;
  beforeAll(async () => {
    server = await startServer(dialect, { events: { pollMs: 50 } });
    ({ space } = await spaceWithPages(server, [{ title: 'Welcome', markdown: '# Welcome\n\nThe first words.\n' }]));
    pageId = (await server.request('GET', `/v1/spaces/${space.id}/content/pages`)).body.pages[0].id;
  });
  afterAll(async () => server?.close());

  const edit = async (crSubject: string, markdown: string, merge: boolean) => {
    const cr = (await server.request('POST', `/v1/spaces/${space.id}/change-requests`, { body: { subject: crSubject } })).body;
    const write = await server.request('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, {
      body: { changes: [{ operation: 'update_page', page: pageId, document: { markdown } }] },
    });
    expect(write.status).toBe(200);
    if (merge) expect((await server.request('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`)).status).toBe(200);
    return cr as { id: string; number: number };
  };

  it("marks main's and a change request's pages live, allows their scripts by hash, and not a revision's", async () => {
    const web = new WebClient(server.url);
    await web.signIn(server.token);
    const main = await web.get(`/app/spaces/${space.id}`);
    expect(main.status).toBe(200);
    expect(main.text).toContain(`<meta name="docsync-live" content="/app/spaces/${space.id}/live">`);
    expect(main.text).toContain(`<script>${LIVE_SCRIPT}</script>`);
    const csp = main.headers.get('content-security-policy')!;
    expect(csp).toContain(cspHash(LIVE_SCRIPT));
    expect(csp).toContain(cspHash(IDIOMORPH_SOURCE));
    expect(csp).not.toMatch(/script-src[^;]*'self'/);

    const cr = await edit('Live review', '# Welcome\n\nReviewed words.\n', false);
    for (const path of [
      `/app/spaces/${space.id}/change-requests/${cr.number}`,
      `/app/spaces/${space.id}/change-requests/${cr.number}/pages/${pageId}`,
    ]) {
      const page = await web.get(path);
      expect(page.status, path).toBe(200);
      expect(page.text, path).toContain(`data-change-request="${cr.number}"`);
    }
    const revision = (await server.request('GET', `/v1/spaces/${space.id}`)).body.revision as string;
    const fixed = await web.get(`/app/spaces/${space.id}/revisions/${revision}`);
    expect(fixed.status).toBe(200);
    expect(fixed.text).not.toContain('docsync-live');
  });

  it('streams the space’s head moves to its signed-in reader, and ends at sign-out', async () => {
    const web = new WebClient(server.url);
    await web.signIn(server.token);
    const stream = await openStream(web, `/app/spaces/${space.id}/live`);
    expect(stream.res.status).toBe(200);
    expect(stream.res.headers.get('content-type')).toContain('text/event-stream');
    const cr = await edit('Live edit', '# Welcome\n\nLive words.\n', true);
    await until(() => stream.events.some((e) => e.event === 'revision' && e.data.changeRequest === undefined), 'a revision event of main');
    expect(stream.events.some((e) => e.event === 'revision' && e.data.changeRequest?.number === cr.number)).toBe(true);
    expect(stream.events.every((e) => e.data.spaceId === space.id)).toBe(true);

    // Signed out: the next event ends the stream instead of reaching it.
    const home = await web.get('/app');
    await web.post('/app/sign-out', { csrf: WebClient.csrf(home.text) });
    const seen = stream.events.length;
    await edit('After sign-out', '# Welcome\n\nUnseen words.\n', true);
    await until(stream.ended, 'the stream to end');
    expect(stream.events.length).toBe(seen);
  });

  it('refuses the stream to who may not read the space, and sends the signed-out to sign in', async () => {
    const stranger = await server.user();
    const web = new WebClient(server.url);
    await web.signIn(stranger.token);
    const refused = await openStream(web, `/app/spaces/${space.id}/live`);
    expect(refused.res.status).toBe(404);
    const nobody = await openStream(new WebClient(server.url), `/app/spaces/${space.id}/live`);
    expect(nobody.res.status).toBe(303);
  });
});
