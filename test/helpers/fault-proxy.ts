import { createServer, request as forward, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

// No vitest here: a plain helper, usable from a bench as well.

/**
 * The faults the proxy injects. `drop` closes the connection before the request reaches the
 * server; `delay` holds the request, then forwards it; `rate-limit` answers 429 with
 * `Retry-After`; `bad-gateway` and `unavailable` answer 502 and 503 (a 503 carries `Retry-After`
 * half the time); `cut` forwards the request, sends the server's status, headers and half of its
 * body, and then closes the connection. Only `delay` and `cut` reach the server.
 */
export const FAULT_KINDS = ['drop', 'delay', 'rate-limit', 'bad-gateway', 'unavailable', 'cut'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface FaultProxyOptions {
  /** The real server: `http://127.0.0.1:port`. */
  target: string;
  /** Seeds the plan: the same seed and the same requests give the same faults. */
  seed: number;
  /** Chance that a request meets a fault, in [0, 1]. @default 0.25 */
  rate?: number;
  /** The faults to draw from. @default every kind */
  kinds?: readonly FaultKind[];
  /**
   * A request (method and path) met with faults this many times in a row is forwarded untouched
   * the next time, so a client that retries a bounded number of times can finish. @default 2
   */
  maxInARow?: number;
  /**
   * Faults chosen by the test rather than drawn: called for each request with its method, path
   * (without the query) and how many requests of that method and path came before it; a kind
   * returned is injected whatever the plan says.
   */
  force?: (request: { method: string; path: string; nth: number }) => FaultKind | undefined;
}

/** One request as the proxy saw it. */
export interface ProxiedRequest {
  method: string;
  /** Path and query. */
  path: string;
  body: string;
  fault?: FaultKind;
  /** Whether the server received the request (and so may have applied it). */
  reached: boolean;
  /** The server's status, when it answered. */
  status?: number;
  /** Milliseconds since the proxy started, when the request came in. */
  at: number;
}

export interface FaultProxy {
  url: string;
  /** Every request in the order it came in. */
  log: ProxiedRequest[];
  /** Faults injected so far, by kind. */
  counts(): Record<FaultKind, number>;
  /** Turns faults on or off (off: a plain forwarding proxy that still logs). */
  setRate(rate: number): void;
  /** Resolves when the next request comes in. */
  nextRequest(): Promise<ProxiedRequest>;
  close(): Promise<void>;
}

/** mulberry32: a small seeded generator, so a failing plan is replayed by its seed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A fault-injecting HTTP proxy in front of a real server; see {@link FaultKind}. */
export async function startFaultProxy(options: FaultProxyOptions): Promise<FaultProxy> {
  const target = new URL(options.target);
  const random = seededRandom(options.seed);
  let rate = options.rate ?? 0.25;
  const kinds = options.kinds ?? FAULT_KINDS;
  const maxInARow = options.maxInARow ?? 2;
  const inARow = new Map<string, number>();
  const log: ProxiedRequest[] = [];
  const started = Date.now();
  const sockets = new Set<Socket>();
  let waiters: ((entry: ProxiedRequest) => void)[] = [];

  const seen = new Map<string, number>();
  const pick = (method: string, path: string): FaultKind | undefined => {
    const key = `${method} ${path}`;
    const nth = seen.get(key) ?? 0;
    seen.set(key, nth + 1);
    const forced = options.force?.({ method, path, nth });
    if (forced !== undefined) return forced;
    // Both draws are made for every request, so the plan depends only on the order of requests.
    const roll = random();
    const kind = kinds[Math.floor(random() * kinds.length)]!;
    if (roll >= rate || (inARow.get(key) ?? 0) >= maxInARow) {
      inARow.delete(key);
      return undefined;
    }
    inARow.set(key, (inARow.get(key) ?? 0) + 1);
    return kind;
  };

  const pass = (req: IncomingMessage, res: ServerResponse, entry: ProxiedRequest, body: Buffer, cut: boolean) => {
    entry.reached = true;
    const headers = { ...req.headers, host: target.host };
    const upstream = forward({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers }, (answer) => {
      entry.status = answer.statusCode;
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => {
        const whole = Buffer.concat(chunks);
        const out = { ...answer.headers };
        delete out['transfer-encoding'];
        out['content-length'] = String(whole.length);
        res.writeHead(answer.statusCode ?? 502, out);
        if (!cut) {
          res.end(whole);
          return;
        }
        // Half the body, then the connection goes: the client saw the status but not the answer.
        res.write(whole.subarray(0, Math.floor(whole.length / 2)), () => req.socket.destroy());
      });
    });
    upstream.on('error', () => req.socket.destroy());
    upstream.end(body);
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const path = req.url ?? '/';
      const fault = pick(req.method ?? 'GET', path.split('?')[0]!);
      const entry: ProxiedRequest = {
        method: req.method ?? 'GET',
        path,
        body: body.toString('utf8'),
        reached: false,
        at: Date.now() - started,
        ...(fault ? { fault } : {}),
      };
      log.push(entry);
      const woken = waiters;
      waiters = [];
      for (const wake of woken) wake(entry);
      const answer = (status: number, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(JSON.stringify({ error: { code: 'fault_injected', message: `injected ${status}` } }));
      };
      switch (fault) {
        case 'drop':
          req.socket.destroy();
          return;
        case 'rate-limit':
          answer(429, { 'retry-after': '1' });
          return;
        case 'bad-gateway':
          answer(502);
          return;
        case 'unavailable':
          answer(503, random() < 0.5 ? { 'retry-after': '0' } : {});
          return;
        case 'delay':
          setTimeout(() => pass(req, res, entry, body, false), 20 + Math.floor(random() * 300));
          return;
        case 'cut':
          pass(req, res, entry, body, true);
          return;
        default:
          pass(req, res, entry, body, false);
      }
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    log,
    counts() {
      const counts = Object.fromEntries(FAULT_KINDS.map((kind) => [kind, 0])) as Record<FaultKind, number>;
      for (const entry of log) if (entry.fault) counts[entry.fault] += 1;
      return counts;
    },
    setRate(value) {
      rate = value;
    },
    nextRequest: () => new Promise((resolve) => waiters.push(resolve)),
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
