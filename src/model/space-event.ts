import { Type, type Static } from '@sinclair/typebox';
import type { DocsyncExtension } from './content-change.js';

/**
 * The kinds of change the event stream reports (docs/api.md, "Events"):
 * - `revision`: a head moved: main's when `changeRequest` is absent, else that change request's;
 * - `change-request`: a change request was opened, or its status or subject changed (`merged`,
 *   `archived`, back to `open` ...);
 * - `comment`: a comment (or, with `reply`, a reply) was posted on the space or a change request.
 */
export const SPACE_EVENT_TYPES = ['revision', 'change-request', 'comment'] as const;
export type SpaceEventType = (typeof SPACE_EVENT_TYPES)[number];

/**
 * Sent first to a subscriber resuming (`Last-Event-ID`) from before the events still kept (the
 * server purges events past its retention window): events it missed are gone, so it should read
 * everything again (a full pull). Its `id` is the purge horizon; the stream goes on after it.
 */
export const RESET_EVENT = 'reset';
export const SpaceResetEvent = Type.Object({
  id: Type.String(),
  type: Type.Literal(RESET_EVENT),
  /** Events at or below this id were purged. */
  horizon: Type.String(),
});
export type SpaceResetEvent = Static<typeof SpaceResetEvent>;

/** One event of `GET /v1/spaces/{spaceId}/events`, the `data` of a server-sent event. */
export const SpaceEvent = Type.Object({
  /** Also the SSE `id:` line: send it back as `Last-Event-ID` to resume after it. */
  id: Type.String(),
  type: Type.Union(SPACE_EVENT_TYPES.map((t) => Type.Literal(t))),
  spaceId: Type.String(),
  /** The new head (`revision`), or the change request's head (`change-request`). */
  revision: Type.Optional(Type.String()),
  changeRequest: Type.Optional(Type.Object({ id: Type.String(), number: Type.Integer(), status: Type.Optional(Type.String()) })),
  comment: Type.Optional(Type.Object({ id: Type.String(), reply: Type.Optional(Type.String()) })),
  createdAt: Type.String(),
});
export type SpaceEvent = Static<typeof SpaceEvent>;

/** The extension name a server advertises in `x-docsync-extensions` when it serves event streams. */
export const EVENTS_EXTENSION = 'space-events' satisfies DocsyncExtension;
