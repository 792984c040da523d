import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  CHANGE_REQUEST_STATUSES,
  DocsyncError,
  REQUIRED_ROLE,
  roleAtLeast,
  type ChangeRequestStatus,
  type Role,
  type TreePage,
} from '../../model/index.js';
import { loadChangeRequest, loadReadableSpace } from '../revisions/content-scope.js';
import { liveBodyEnd } from './live.js';
import { changeRequestBase } from '../revisions/change-request-base.js';
import { loadPageMarkdown } from '../revisions/stored-documents.js';
import { mergeChangeRequest } from '../revisions/merge-change-request.js';
import { updateChangeRequest } from '../revisions/update-change-request.js';
import { findRevision, revisionTree } from '../store/revisions.js';
import { listChangeRequests, patchChangeRequest, type ChangeRequestRow } from '../store/change-requests.js';
import { requireWebCaller } from './caller.js';
import { checkSessionForm } from './csrf.js';
import { appPage, esc } from './html.js';
import { pageChanges, type PageChange } from './page-changes.js';
import { renderedPage } from './render-cache.js';
import { sendHtml } from './reply.js';
import { spaceChrome } from './space-pages.js';
import { spaceSite } from './space-site.js';
import type { SpaceRow } from '../store/spaces.js';
import { textDiffHtml } from './text-diff.js';
import type { WebSession } from './session.js';

const SpaceParams = Type.Object({ spaceId: Type.String({ maxLength: 64 }) });
const CrParams = Type.Object({ spaceId: Type.String({ maxLength: 64 }), cr: Type.String({ maxLength: 64 }) });
const ActionParams = Type.Object({
  spaceId: Type.String({ maxLength: 64 }),
  cr: Type.String({ maxLength: 64 }),
  action: Type.Union([Type.Literal('merge'), Type.Literal('update'), Type.Literal('archive')]),
});
const Form = Type.Object({ csrf: Type.String({ maxLength: 128 }) });

const ACTIONS = { merge: 'space.merge', update: 'changeRequest.update', archive: 'changeRequest.edit' } as const;
const may = (role: Role, action: keyof typeof ACTIONS) => roleAtLeast(role, REQUIRED_ROLE[ACTIONS[action]]);

/** A space's change requests, one change request (its pages as diffs, its comments), and its merge, update and archive forms. */
export const changeRequestPages: FastifyPluginAsyncTypebox = async (app) => {
  const { db, clock } = app.ctx;
  const now = () => clock.now().toISOString();
  const names = async (ids: string[]) => {
    const rows =
      ids.length === 0
        ? []
        : await db
            .selectFrom('users')
            .select(['id', 'display_name'])
            .where('id', 'in', [...new Set(ids)])
            .execute();
    return new Map(rows.map((r) => [r.id, r.display_name]));
  };

  app.get(
    '/spaces/:spaceId/change-requests',
    {
      schema: {
        params: SpaceParams,
        querystring: Type.Object({ status: Type.Optional(Type.Union(CHANGE_REQUEST_STATUSES.map((s) => Type.Literal(s)))) }),
      },
    },
    async (request, reply) => {
      const session = await requireWebCaller(request);
      const { space } = await loadReadableSpace(db, session.user, request.params.spaceId, 'changeRequest.view');
      const status: ChangeRequestStatus = request.query.status ?? 'open';
      const rows = await listChangeRequests(db, space.id, { status }, undefined, 200);
      const authors = await names(rows.map((r) => r.created_by));
      const tabs = CHANGE_REQUEST_STATUSES.map(
        (s) => `<li><a href="?status=${s}"${s === status ? ' aria-current="page"' : ''}>${s}</a></li>`,
      ).join('');
      const items = rows.map(
        (r) =>
          `<li><a href="/app/spaces/${esc(space.id)}/change-requests/${r.number}">#${r.number} ${esc(r.subject || 'Untitled')}</a> <small>by ${esc(authors.get(r.created_by) ?? 'someone')}, ${esc(r.updated_at.slice(0, 10))}</small></li>`,
      );
      const body = `<h1>Change requests</h1><ul class="app-tabs">${tabs}</ul>${items.length ? `<ul class="app-list">${items.join('')}</ul>` : `<p>No ${status} change request.</p>`}`;
      return sendHtml(reply, 200, appPage(`Change requests of ${space.title}`, body, spaceChrome(session, space)));
    },
  );

  app.get('/spaces/:spaceId/change-requests/:cr', { schema: { params: CrParams } }, async (request, reply) => {
    const session = await requireWebCaller(request);
    const { space, role } = await loadReadableSpace(db, session.user, request.params.spaceId, 'changeRequest.view');
    const cr = await loadChangeRequest(db, space, request.params.cr);
    // The page follows the change request live (its head, its status: live.ts).
    const body = (await changeRequestBody(session, space, role, cr)) + liveBodyEnd(space.id, String(cr.number));
    return sendHtml(
      reply,
      200,
      appPage(
        `#${cr.number} ${cr.subject}`,
        body,
        spaceChrome(session, space, [[`#${cr.number}`, `/app/spaces/${space.id}/change-requests/${cr.number}`]]),
      ),
    );
  });

  app.post('/spaces/:spaceId/change-requests/:cr/:action', { schema: { params: ActionParams, body: Form } }, async (request, reply) => {
    const session = await requireWebCaller(request);
    await checkSessionForm(request);
    const { action } = request.params;
    // The same checks and code as the API's merge, update and PATCH status.
    const { space } = await loadReadableSpace(db, session.user, request.params.spaceId, ACTIONS[action]);
    const cr = await loadChangeRequest(db, space, request.params.cr);
    const input = { spaceId: space.id, changeRequestId: cr.id, userId: session.user.id };
    if (action === 'merge') await mergeChangeRequest(db, input, now);
    else if (action === 'update') await updateChangeRequest(db, input, now);
    else {
      if (cr.status === 'merged')
        throw new DocsyncError('conflict', `change request #${cr.number} is merged; it can no longer be archived`);
      if (!(await patchChangeRequest(db, cr, { status: 'archived' }, now())))
        throw new DocsyncError('conflict', `change request #${cr.number} was merged meanwhile`);
    }
    return reply.redirect(`/app/spaces/${space.id}/change-requests/${cr.number}`, 303);
  });

  async function changeRequestBody(session: WebSession, space: SpaceRow, role: Role, cr: ChangeRequestRow): Promise<string> {
    const baseRow = await findRevision(db, changeRequestBase(cr));
    const headRow = await findRevision(db, cr.revision_id);
    if (!baseRow || !headRow) throw new Error(`a revision of change request ${cr.id} is missing`);
    const [base, head] = [await revisionTree(db, baseRow), await revisionTree(db, headRow)];
    const changes = pageChanges(base, head);
    const author = (await names([cr.created_by])).get(cr.created_by) ?? 'someone';
    const prefix = `/app/spaces/${space.id}/change-requests/${cr.number}`;
    const actions =
      cr.status === 'merged'
        ? ''
        : (['merge', 'update', 'archive'] as const)
            .filter((a) => may(role, a) && !(a === 'archive' && cr.status === 'archived'))
            .map(
              (a) =>
                `<form method="post" action="${prefix}/${a}"><input type="hidden" name="csrf" value="${esc(session.session.csrf)}"><button type="submit"${a === 'merge' ? ' class="app-primary"' : ''}>${{ merge: 'Merge', update: 'Update from main', archive: 'Archive' }[a]}</button></form>`,
            )
            .join('');
    const diffs = await diffSections(space, cr, base, head, baseRow.id, headRow.id, changes);
    const comments = await commentsHtml(cr.id);
    return `<h1>#${cr.number} ${esc(cr.subject || 'Untitled')}</h1>
<p><span class="app-status" data-status="${esc(cr.status)}">${esc(cr.status)}</span> by ${esc(author)}, opened ${esc(cr.created_at.slice(0, 10))}${cr.merged_at ? `, merged ${esc(cr.merged_at.slice(0, 10))}` : ''} · <a href="${prefix}/preview">Read its pages</a></p>
${actions ? `<div class="app-actions">${actions}</div>` : ''}
<h2>Pages (${changes.length})</h2>${changes.length ? `<ul class="app-list">${changes.map((c) => `<li>${changeLabel(c)} <a href="#diff-${esc(c.page.id)}">${esc(c.page.title)}</a></li>`).join('')}</ul>` : '<p>No page changed.</p>'}
${diffs}<h2>Comments</h2>${comments}`;
  }

  /** Each changed page: its markdown as a line diff, and rendered before and after, side by side. */
  async function diffSections(
    space: SpaceRow,
    cr: ChangeRequestRow,
    base: Parameters<typeof pageChanges>[0],
    head: Parameters<typeof pageChanges>[1],
    baseId: string,
    headId: string,
    changes: PageChange[],
  ): Promise<string> {
    const before = await loadPageMarkdown(
      db,
      base,
      changes.flatMap((c) => (c.kind === 'changed' ? [c.before] : c.kind === 'deleted' ? [c.page] : [])),
    );
    const after = await loadPageMarkdown(
      db,
      head,
      changes.flatMap((c) => (c.kind === 'deleted' ? [] : [c.page])),
    );
    const siteOf = (tree: typeof base, revision: string, prefix: string) =>
      spaceSite(db, `app|${revision}|${prefix}`, tree, {
        title: space.title || 'Untitled space',
        pageUrl: (p) => `${prefix}/pages/${p.id}`,
        assetBase: `/app/spaces/${space.id}/revisions/${revision}/`,
        orgId: space.org_id,
      });
    const basePrefix = `/app/spaces/${space.id}/revisions/${baseId}`;
    const headPrefix = `/app/spaces/${space.id}/change-requests/${cr.number}`;
    const baseSite = await siteOf(base, baseId, basePrefix);
    const headSite = await siteOf(head, headId, headPrefix);
    // Rendered on the parse pool within its budget and kept, as the space's pages (render-cache.ts).
    const rendered = async (side: 'base' | 'head', page: TreePage) => {
      const [key, tree, site] =
        side === 'base' ? [`app|${baseId}|${basePrefix}`, base, baseSite] : [`app|${headId}|${headPrefix}`, head, headSite];
      return site.byId.has(page.id) ? (await renderedPage(db, key, tree, site, page, { mode: 'preview' }, space.org_id)).html : '';
    };
    const sections = await Promise.all(
      changes.map(async (c) => {
        if (c.kind !== 'changed' || c.edited) {
          const then = c.kind === 'added' ? '' : before.markdown(c.kind === 'changed' ? c.before : c.page);
          const now = c.kind === 'deleted' ? '' : after.markdown(c.page);
          if (then === now)
            return `<section class="diff-page" id="diff-${esc(c.page.id)}"><h3>${changeLabel(c)} ${esc(c.page.title)}</h3></section>`;
          const left = c.kind === 'added' ? '' : await rendered('base', c.kind === 'changed' ? c.before : c.page);
          const right = c.kind === 'deleted' ? '' : await rendered('head', c.page);
          const sides = `<div class="diff-sides"><section><h4>Before</h4>${left}</section><section><h4>After</h4>${right}</section></div>`;
          return `<section class="diff-page" id="diff-${esc(c.page.id)}"><h3>${changeLabel(c)} ${esc(c.page.title)}</h3>${textDiffHtml(then, now)}${sides}</section>`;
        }
        return `<section class="diff-page" id="diff-${esc(c.page.id)}"><h3>${changeLabel(c)} ${esc(c.page.title)}</h3></section>`;
      }),
    );
    return sections.join('');
  }

  async function commentsHtml(crId: string): Promise<string> {
    const rows = await db
      .selectFrom('comments')
      .selectAll()
      .where('change_request_id', '=', crId)
      .orderBy('posted_at')
      .limit(500)
      .execute();
    if (rows.length === 0) return '<p>No comment.</p>';
    const who = await names(rows.map((r) => r.posted_by));
    return rows
      .map(
        (r) =>
          `<div class="app-comment"><small>${esc(who.get(r.posted_by) ?? 'someone')}, ${esc(r.posted_at.slice(0, 16).replace('T', ' '))}${r.status === 'resolved' ? ', resolved' : ''}</small><div>${esc(r.body).replace(/\n/g, '<br>')}</div></div>`,
      )
      .join('');
  }
};

function changeLabel(change: PageChange): string {
  if (change.kind === 'added') return '<span class="app-status">added</span>';
  if (change.kind === 'deleted') return '<span class="app-status">deleted</span>';
  const what = [change.edited ? 'changed' : '', change.moved ? 'moved' : ''].filter(Boolean).join(', ');
  return `<span class="app-status">${what}</span>`;
}
