import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { DocsyncError } from '../../model/index.js';
import { memberRole, roleResolver } from '../auth/access.js';
import { findOrganization, listOrganizationsOfUser } from '../store/organizations.js';
import { findCollection } from '../store/collections.js';
import { siteUrls } from '../views/site.js';
import { requireWebCaller } from './caller.js';
import { appPage, esc } from './html.js';
import { sendHtml } from './reply.js';

interface Node {
  kind: 'collection' | 'space';
  id: string;
  title: string;
  parent: string | null;
}

/** Collections and spaces as nested lists, each under its parent collection. */
function tree(nodes: readonly Node[], parent: string | null): string {
  const here = nodes.filter((n) => n.parent === parent);
  if (here.length === 0) return '';
  const item = (n: Node) =>
    n.kind === 'space'
      ? `<li><a href="/app/spaces/${esc(n.id)}">${esc(n.title || 'Untitled')}</a></li>`
      : `<li><a href="/app/collections/${esc(n.id)}"><strong>${esc(n.title)}</strong></a>${tree(nodes, n.id)}</li>`;
  return `<ul class="app-list">${here.map(item).join('')}</ul>`;
}

/** The home (the caller's organizations), an organization (its spaces and collections as a tree, its sites), a collection. */
export const orgPages: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.ctx;

  app.get('/', async (request, reply) => {
    const session = await requireWebCaller(request);
    const orgs = await listOrganizationsOfUser(db, session.user.id, undefined, 1000);
    const items = orgs.map(
      (o) => `<li><a href="/app/orgs/${esc(o.id)}">${esc(o.title)}</a> <small>${esc(o.member_role ?? 'guest')}</small></li>`,
    );
    const body = `<h1>Your organizations</h1>${items.length ? `<ul class="app-list">${items.join('')}</ul>` : '<p>You are not a member of any organization yet.</p>'}`;
    return sendHtml(reply, 200, appPage('Home', body, { session }));
  });

  /** The spaces and collections of `orgId` the caller can see (as the API lists them). */
  async function visibleNodes(orgId: string, userId: string): Promise<Node[]> {
    const resolve = roleResolver(db, userId);
    const collections = await db
      .selectFrom('collections')
      .selectAll()
      .where('org_id', '=', orgId)
      .orderBy('position')
      .orderBy('created_at')
      .execute();
    const spaces = await db
      .selectFrom('spaces')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('deleted_at', 'is', null)
      .orderBy('created_at')
      .execute();
    const nodes: Node[] = [];
    for (const c of collections)
      if ((await resolve(c)) !== null) nodes.push({ kind: 'collection', id: c.id, title: c.title, parent: c.parent_id });
    for (const s of spaces) if ((await resolve(s)) !== null) nodes.push({ kind: 'space', id: s.id, title: s.title, parent: s.parent_id });
    // A node whose collection the caller cannot see is shown at the top.
    const ids = new Set(nodes.map((n) => n.id));
    return nodes.map((n) => (n.parent !== null && !ids.has(n.parent) ? { ...n, parent: null } : n));
  }

  app.get('/orgs/:orgId', { schema: { params: Type.Object({ orgId: Type.String({ maxLength: 64 }) }) } }, async (request, reply) => {
    const session = await requireWebCaller(request);
    const { orgId } = request.params;
    const member = await memberRole(db, orgId, session.user.id);
    const org = member ? await findOrganization(db, orgId) : undefined;
    if (!member || !org) throw new DocsyncError('not_found', `organization ${orgId} not found`);
    const nodes = await visibleNodes(orgId, session.user.id);
    const sites =
      member.role === null ? [] : await db.selectFrom('sites').selectAll().where('org_id', '=', orgId).orderBy('created_at').execute();
    const siteItems = sites.map((s) => {
      const urls = siteUrls('', s);
      return `<li>${esc(s.title)} <small>${esc(s.visibility)}${s.published === 1 ? '' : ', not published'}</small> <a href="${esc(urls.published)}">open</a></li>`;
    });
    const body =
      `<h1>${esc(org.title)}</h1><h2>Spaces</h2>${tree(nodes, null) || '<p>No space you can read.</p>'}` +
      (siteItems.length ? `<h2>Sites</h2><ul class="app-list">${siteItems.join('')}</ul>` : '');
    return sendHtml(reply, 200, appPage(org.title, body, { session, trail: [[org.title, `/app/orgs/${orgId}`]] }));
  });

  app.get(
    '/collections/:collectionId',
    { schema: { params: Type.Object({ collectionId: Type.String({ maxLength: 64 }) }) } },
    async (request, reply) => {
      const session = await requireWebCaller(request);
      const { collectionId } = request.params;
      const collection = await findCollection(db, collectionId);
      const role = collection ? await roleResolver(db, session.user.id)(collection) : null;
      if (!collection || role === null) throw new DocsyncError('not_found', `collection ${collectionId} not found`);
      const nodes = await visibleNodes(collection.org_id, session.user.id);
      const body = `<h1>${esc(collection.title)}</h1>${collection.description ? `<p>${esc(collection.description)}</p>` : ''}${tree(nodes, collection.id) || '<p>Empty.</p>'}`;
      return sendHtml(
        reply,
        200,
        appPage(collection.title, body, { session, trail: [['Organization', `/app/orgs/${collection.org_id}`]] }),
      );
    },
  );
};
