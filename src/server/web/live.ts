import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { Id } from '../../model/index.js';
import { morphRefreshScript } from '../../render/index.js';
import { hashToken } from '../auth/tokens.js';
import { serveEventStream } from '../events/stream.js';
import { loadReadableSpace } from '../revisions/content-scope.js';
import { findLiveWebSession } from '../store/web-sessions.js';
import { requireWebCaller } from './caller.js';
import { WEB_SESSION_COOKIE } from './session.js';

/*
 * Live updates of the app's space and change request pages (issue 23: "the web pages use the same
 * stream"). A page that shows what can change (main's pages, a change request's) carries a meta
 * tag naming its stream and a change request number, and two inline scripts allowed by hash in
 * the CSP (csp.ts): idiomorph and the script below. On an event of what the page shows (main's
 * head for main's pages, the change request's head or status for its pages) the page is fetched
 * again and morphed into the open one, so scroll position and open menus survive. The stream is
 * the API's own (server/events/stream.ts) from the process's one hub, for the signed-in person,
 * ending when the session ends or the space is no longer theirs to read.
 */

const require = createRequire(import.meta.url);

/** idiomorph, the maintained DOM morphing library `docsync preview` uses too. */
export const IDIOMORPH_SOURCE = readFileSync(require.resolve('idiomorph/dist/idiomorph.min.js'), 'utf8');

export const LIVE_SCRIPT = `(function () {
  var meta = document.querySelector('meta[name="docsync-live"]');
  if (!meta || typeof EventSource === 'undefined') return;
  var cr = meta.getAttribute('data-change-request');
  ${morphRefreshScript("fetch(location.href, { credentials: 'same-origin' }).then(function (r) { return r.ok ? r.text() : null; })")}
  function shown(event) {
    var data = JSON.parse(event.data);
    var number = data.changeRequest ? String(data.changeRequest.number) : null;
    if (cr ? number === cr : number === null || (data.changeRequest.status === 'merged')) refresh();
  }
  var events = new EventSource(meta.getAttribute('content'));
  var opened = false;
  events.addEventListener('revision', shown);
  events.addEventListener('change-request', shown);
  events.addEventListener('open', function () {
    // After a reconnect, what changed meanwhile is read by reading the page again.
    if (opened) refresh();
    opened = true;
    document.documentElement.setAttribute('data-docsync-live', 'true');
  });
})();`;

/** The end of the body of a page that updates itself: its stream, and the scripts. */
export function liveBodyEnd(spaceId: string, changeRequest: string | undefined): string {
  const cr = changeRequest === undefined ? '' : ` data-change-request="${encodeURIComponent(changeRequest)}"`;
  return `<meta name="docsync-live" content="/app/spaces/${encodeURIComponent(spaceId)}/live"${cr}><script>${IDIOMORPH_SOURCE}</script><script>${LIVE_SCRIPT}</script>`;
}

const SpaceParams = Type.Object({ spaceId: Id });
/** How often the stream checks the session and the space again (at its heartbeat). */
const HEARTBEAT_MS = 15_000;

export const livePages: FastifyPluginAsyncTypebox = async (app) => {
  const { db, clock, events: hub } = app.ctx;
  app.get('/spaces/:spaceId/live', { schema: { params: SpaceParams } }, async (request, reply) => {
    const { spaceId } = request.params;
    const session = await requireWebCaller(request);
    await loadReadableSpace(db, session.user, spaceId);
    const secret = request.cookies[WEB_SESSION_COOKIE]!;
    const allowed = async () => {
      if (!(await findLiveWebSession(db, hashToken(secret), clock.now().toISOString()))) return false;
      return loadReadableSpace(db, session.user, spaceId).then(
        () => true,
        () => false,
      );
    };
    await serveEventStream(request, reply, {
      hub,
      heartbeatMs: HEARTBEAT_MS,
      // A page reads itself again after a reconnect: nothing to resume.
      missed: async () => [],
      visible: async (rows) => rows.filter((row) => row.space_id === spaceId && row.type !== 'comment'),
      allowed,
    });
  });
};
