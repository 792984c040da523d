import type { SpaceEvent } from '../../src/model/index.js';
import { EVENT_WAIT_MS } from './patience.js';

export interface TestStream {
  status: number;
  headers: Headers;
  /** Every event received so far, in order. */
  events: (SpaceEvent & { sseId: string; sseType: string })[];
  /** How many heartbeat comments arrived. */
  heartbeats: number;
  /** Waits (up to `ms`) until `ok` holds for the events received; fails naming `what` otherwise. */
  until(what: string, ok: (events: TestStream['events']) => boolean, ms?: number): Promise<void>;
  /** Settles when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

/** Opens a server-sent event stream with fetch and parses it as it arrives. */
export async function openStream(url: string, token: string, headers: Record<string, string> = {}): Promise<TestStream> {
  const abort = new AbortController();
  const res = await fetch(url, {
    headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream', ...headers },
    signal: abort.signal,
  });
  const stream: TestStream = {
    status: res.status,
    headers: res.headers,
    events: [],
    heartbeats: 0,
    ended: Promise.resolve(),
    close: () => abort.abort(),
    async until(what, ok, ms = EVENT_WAIT_MS) {
      const end = Date.now() + ms;
      while (!ok(stream.events)) {
        if (Date.now() > end) throw new Error(`timed out waiting for ${what}; got ${JSON.stringify(stream.events.map((e) => e.sseType))}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
  };
  if (res.status !== 200 || !res.body) {
    await res.body?.cancel();
    return stream;
  }
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  stream.ended = (async () => {
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += value;
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const fields = new Map<string, string>();
          for (const line of block.split('\n')) {
            if (line === ': heartbeat') stream.heartbeats += 1;
            const colon = line.indexOf(':');
            if (colon > 0) fields.set(line.slice(0, colon), line.slice(colon + 1).trimStart());
          }
          if (fields.has('data'))
            stream.events.push({
              ...(JSON.parse(fields.get('data')!) as SpaceEvent),
              sseId: fields.get('id')!,
              sseType: fields.get('event')!,
            });
        }
      }
    } catch {
      // aborted by close()
    }
  })();
  return stream;
}
