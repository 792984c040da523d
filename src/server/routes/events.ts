import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { DocsyncError, Id, badRequest, type Role } from '../../model/index.js';
import { contentRole, memberRole, requireRole, roleResolver } from '../auth/access.js';
import { bearerToken } from '../auth/tokens.js';
import { findSpace } from '../store/spaces.js';
import { userForToken } from '../store/users.js';
import { readEvents, type EventRow } from '../events/hub.js';
import { serveEventStream } from '../events/stream.js';
import { eventHorizon } from '../jobs/purge-events.js';

export interface EventRouteOptions {
  /** How often each server process reads new events while anyone listens (the app's hub, app.ts). @default 200 */
  pollMs?: number;
  /** How often a stream sends a heartbeat comment (and checks access again). @default 15000 */
  heartbeatMs?: number;
}

const SpaceParams = Type.Object({ spaceId: Id });
const OrgParams = Type.Object({ organizationId: Id });
const EventsQuery = Type.Object({ lastEventId: Type.Optional(Type.String()) });
/** How long a decision on who may read what is reused before it is made again. */
const ACCESS_TTL_MS = 1_000;

/** `Last-Event-ID` (header, or the `lastEventId` query for clients that cannot set it); 0 when absent. */
function resumeAfter(header: string | string[] | undefined, query: string | undefined): number | undefined {
  const value = query ?? (Array.isArray(header) ? header[0] : header);
  if (value === undefined || value === '') return undefined;
  if (!/^[0-9]{1,15}$/.test(value)) throw badRequest(`Last-Event-ID must be an event id from this stream, got "${value.slice(0, 40)}"`);
  return Number(value);
}

/** A check that is made again at most once per `ACCESS_TTL_MS`. */
function cached<T>(load: () => Promise<T>): () => Promise<T> {
  let at = 0;
  let value: Promise<T> | undefined;
  return () => {
    if (!value || Date.now() - at > ACCESS_TTL_MS) {
      at = Date.now();
      value = load();
    }
    return value;
  };
}

/**
 * The event streams (docsync extension `space-events`, docs/api.md): what changes in a space, or
 * in every space of an organization the caller can read, as server-sent events.
 */
export const eventRoutes: FastifyPluginAsyncTypebox<EventRouteOptions> = async (app, options) => {
  const { db, events: hub } = app.ctx;
  const heartbeatMs = options.heartbeatMs ?? 15_000;

  /** The purge horizon when `after` is below it (the subscriber missed purged events), else undefined. */
  async function resetFor(after: number | undefined): Promise<number | undefined> {
    if (after === undefined) return undefined;
    const horizon = await eventHorizon(db);
    return after < horizon ? horizon : undefined;
  }

  /** Every event after `after` up to `upTo` that `where` selects, however many. */
  async function missed(after: number | undefined, upTo: number, where: { spaceId?: string; orgId?: string }): Promise<EventRow[]> {
    if (after === undefined) return [];
    const all: EventRow[] = [];
    for (let from = after; ;) {
      const rows = await readEvents(db, { ...where, after: from, upTo });
      all.push(...rows);
      if (rows.length === 0 || Number(rows.at(-1)!.id) >= upTo) return all;
      from = Number(rows.at(-1)!.id);
    }
  }

  /** The token the stream was opened with still names its user. */
  const tokenStillValid = (authorization: string | undefined, userId: string) => async () => {
    const token = bearerToken(authorization);
    return token !== undefined && (await userForToken(db, token, app.ctx.clock.now().toISOString()))?.id === userId;
  };

  app.get('/spaces/:spaceId/events', { schema: { params: SpaceParams, querystring: EventsQuery } }, async (request, reply) => {
    const { spaceId } = request.params;
    const after = resumeAfter(request.headers['last-event-id'], request.query.lastEventId);
    const userId = request.caller.id;
    const readable = async () => {
      const space = await findSpace(db, spaceId);
      return space !== undefined && (await contentRole(db, userId, space)) !== null;
    };
    const space = await findSpace(db, spaceId);
    if (!space) throw new DocsyncError('not_found', `space ${spaceId} not found`);
    requireRole(await contentRole(db, userId, space), 'space.view', `space ${spaceId}`);
    const token = tokenStillValid(request.headers.authorization, userId);
    const reset = await resetFor(after);
    await serveEventStream(request, reply, {
      hub,
      heartbeatMs,
      ...(reset !== undefined ? { reset } : {}),
      missed: (upTo) => missed(reset ?? after, upTo, { spaceId }),
      visible: async (rows) => rows.filter((row) => row.space_id === spaceId),
      allowed: cached(async () => (await token()) && (await readable())),
    });
  });

  app.get('/orgs/:organizationId/events', { schema: { params: OrgParams, querystring: EventsQuery } }, async (request, reply) => {
    const { organizationId } = request.params;
    const after = resumeAfter(request.headers['last-event-id'], request.query.lastEventId);
    const userId = request.caller.id;
    if (!(await memberRole(db, organizationId, userId))) throw new DocsyncError('not_found', `organization ${organizationId} not found`);
    const token = tokenStillValid(request.headers.authorization, userId);
    // Roles are resolved per space, and made again once a second so a revoked grant takes effect.
    const resolver = cached(async () => {
      const resolve = roleResolver(db, userId);
      const roles = new Map<string, Promise<Role | null>>();
      return (row: EventRow) => {
        let role = roles.get(row.space_id);
        if (!role)
          roles.set(
            row.space_id,
            (role = resolve({ id: row.space_id, org_id: row.org_id, parent_id: row.parent_id, default_level: row.default_level })),
          );
        return role;
      };
    });
    const reset = await resetFor(after);
    await serveEventStream(request, reply, {
      hub,
      heartbeatMs,
      ...(reset !== undefined ? { reset } : {}),
      missed: (upTo) => missed(reset ?? after, upTo, { orgId: organizationId }),
      visible: async (rows) => {
        const roleOf = await resolver();
        const mine = rows.filter((row) => row.org_id === organizationId);
        const roles = await Promise.all(mine.map(roleOf));
        return mine.filter((_, i) => roles[i] !== null);
      },
      allowed: cached(async () => (await token()) && (await memberRole(db, organizationId, userId)) !== undefined),
    });
  });
};
