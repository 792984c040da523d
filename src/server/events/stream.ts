import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SpaceEvent, SpaceResetEvent } from '../../model/index.js';
import { DOCSYNC_EXTENSIONS, EXTENSIONS_HEADER, RESET_EVENT } from '../../model/index.js';
import type { EventHub, EventRow } from './hub.js';

/** An event as the stream sends it (model/space-event.ts). */
export function eventView(row: EventRow): SpaceEvent {
  const changeRequest =
    row.change_request_id !== null && row.change_request_number !== null
      ? { id: row.change_request_id, number: row.change_request_number, ...(row.status !== null ? { status: row.status } : {}) }
      : undefined;
  return {
    id: String(row.id),
    type: row.type as SpaceEvent['type'],
    spaceId: row.space_id,
    ...(row.revision_id !== null ? { revision: row.revision_id } : {}),
    ...(changeRequest ? { changeRequest } : {}),
    ...(row.comment_id !== null ? { comment: { id: row.comment_id, ...(row.reply_id !== null ? { reply: row.reply_id } : {}) } } : {}),
    createdAt: row.created_at,
  };
}

export interface StreamOptions {
  hub: EventHub;
  /** The events at or below the hub's cursor a resuming subscriber missed. */
  missed: (upTo: number) => Promise<EventRow[]>;
  /** Which events this subscriber may see (its space, what its role lets it read). */
  visible: (rows: EventRow[]) => Promise<EventRow[]>;
  /** False once the caller may no longer read what it subscribed to (access or token revoked): the stream ends. */
  allowed: () => Promise<boolean>;
  heartbeatMs: number;
  /** The purge horizon, when the subscriber resumes from below it: a `reset` event is sent first. */
  reset?: number;
}

/**
 * Serves one server-sent event stream: the events the subscriber missed (after `Last-Event-ID`),
 * then every new one as the hub reads it, in id order, each once; a comment line every
 * `heartbeatMs` so that proxies keep the connection, at which access is checked again.
 */
export async function serveEventStream(request: FastifyRequest, reply: FastifyReply, options: StreamOptions): Promise<void> {
  reply.hijack();
  const res = reply.raw;
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    'x-accel-buffering': 'no',
    [EXTENSIONS_HEADER]: DOCSYNC_EXTENSIONS.join(','),
  });
  res.write('retry: 1000\n: connected\n\n');

  let closed = false;
  let sent = 0;
  if (options.reset !== undefined) {
    sent = options.reset;
    const reset: SpaceResetEvent = { id: String(sent), type: RESET_EVENT, horizon: String(sent) };
    res.write(`id: ${sent}\nevent: ${RESET_EVENT}\ndata: ${JSON.stringify(reset)}\n\n`);
  }
  // Batches are written one after another, in order, even though filtering them is async.
  let chain = Promise.resolve();
  const end = () => {
    if (closed) return;
    closed = true;
    stopListening();
    clearInterval(heartbeat);
    res.end();
  };
  const write = (rows: EventRow[]) => {
    chain = chain
      .then(async () => {
        if (closed || rows.length === 0) return;
        if (!(await options.allowed())) return end();
        for (const row of await options.visible(rows)) {
          const id = Number(row.id);
          if (id <= sent) continue;
          sent = id;
          res.write(`id: ${id}\nevent: ${row.type}\ndata: ${JSON.stringify(eventView(row))}\n\n`);
        }
      })
      .catch(() => end());
  };

  const buffered: EventRow[][] = [];
  let live = false;
  let stopListening = () => undefined as void;
  request.raw.on('close', end);
  res.on('close', end);
  const heartbeat = setInterval(() => {
    chain = chain
      .then(async () => {
        if (closed) return;
        if (!(await options.allowed())) return end();
        res.write(': heartbeat\n\n');
      })
      .catch(() => end());
  }, options.heartbeatMs);
  const listening = await options.hub.listen((rows) => (live ? write(rows) : buffered.push(rows)));
  stopListening = listening.close;
  if (closed) return listening.close();
  try {
    write(await options.missed(listening.cursor));
  } catch {
    return end();
  }
  for (const rows of buffered) write(rows);
  live = true;
}
