import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Seen {
  method: string;
  url: string;
  authorization: string | undefined;
  body: string;
}

export interface Fixture {
  url: string;
  port: number;
  /** Every request the server received, in arrival order. */
  seen: Seen[];
  close(): Promise<void>;
}

type Handler = (req: IncomingMessage, res: ServerResponse, seen: Seen, index: number) => void | Promise<void>;

/**
 * A small real HTTP server for behaviour the docsync server never shows on demand (503s,
 * resets, rate limits). Listens on 127.0.0.1, on `port` when given (a restart on the same port).
 */
export async function httpFixture(handler: Handler, port = 0): Promise<Fixture> {
  const seen: Seen[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const entry: Seen = {
        method: req.method ?? '',
        url: req.url ?? '',
        authorization: req.headers.authorization,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      seen.push(entry);
      void Promise.resolve(handler(req, res, entry, seen.length - 1)).catch((error: unknown) => {
        res.statusCode = 500;
        res.end(String(error));
      });
    });
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const actual = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${actual}`,
    port: actual,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** A retry timing that never waits and records what it was asked to wait. */
export function recordingTiming(now = Date.parse('2025-03-01T12:00:00.000Z')) {
  const delays: number[] = [];
  return {
    delays,
    timing: {
      now: () => now,
      random: () => 0.5,
      sleep: async (ms: number) => {
        delays.push(ms);
      },
    },
  };
}
