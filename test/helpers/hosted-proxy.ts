import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { publishedOperation, unknownBodyFields } from './published-requests.js';
import { rateWindow } from './rate-window.js';

export interface HostedProxy {
  url: string;
  /** `METHOD path` of every request that reached the proxy, in arrival order. */
  seen: string[];
  /** The status each of `seen` was answered with, same order. */
  statuses: number[];
  /** Refuses every request with 429 (no `Retry-After`) for `ms`, as a burst penalty would. */
  block(ms: number): void;
  close(): Promise<void>;
}

export interface HostedProxyOptions {
  /**
   * Answer content writes with the change request alone, the compat answer a server gives when
   * it ignores `compat=false` (docs/client.md): no `changes`, so no created page ids.
   */
  compatContentWrites?: boolean;
  /** Requests allowed per one-second window; past it, 429 with `X-RateLimit-*` and no `Retry-After`. @default no limit */
  requestsPerSecond?: number;
  /**
   * Forward everything as our server answers it (extensions and all), only counting requests:
   * the "direct" side of a comparison whose other side is the emulation. @default false
   */
  passThrough?: boolean;
}

/**
 * Our server answering as the hosted API does where the two differ in ways the sync tool must
 * cope with, from the published spec (`@gitbook/api`) and GitBook's docs:
 * - no `x-docsync-extensions` header, so the client uses published operations only;
 * - an operation the spec does not publish is a 404, and a request body with a field its schema
 *   does not name (an extension such as `linkTitle`, an unknown operation) is a 400;
 * - change requests addressed by id only (a number in the path is our server's convenience);
 * - no page bodies in trees and listings: each page's markdown is a request of its own;
 * - a conflicting merge or update is `200 {revision, result: "conflicts"}`, not a 409;
 * - a rate limit answered 429 with `X-RateLimit-Reset`/`-Remaining` and no `Retry-After`.
 * File downloads (on the hosted API another host's signed URLs) go through the proxy too, so
 * they are counted, but are not API operations.
 */
const HOP_HEADERS = new Set(['content-length', 'transfer-encoding', 'content-encoding', 'connection', 'keep-alive']);
const DOWNLOAD = /^\/v1\/spaces\/[^/]+\/revisions\/[^/]+\/files\/[^/]+\/download$/;
const MERGE_LIKE = /^\/v1\/spaces\/([^/]+)\/change-requests\/([^/]+)\/(merge|update)$/;
/** Our server's 409 for a merge that met conflicts (server/revisions/merge-revisions.ts, conflictMessage). */
const CONFLICTS_MESSAGE = /: \d+ conflicts?;/;

/** Page bodies only come one page at a time from the hosted API: drop them from trees and listings. */
function withoutInlineMarkdown(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutInlineMarkdown);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) if (key !== 'markdown') out[key] = withoutInlineMarkdown(inner);
  return out;
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}
const refuse = (res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}) =>
  send(res, status, { error: { code: status, message } }, headers);

function forwardHeaders(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === 'string' && name !== 'host' && name !== 'connection' && name !== 'content-length') headers[name] = value;
  }
  return headers;
}

/** Why the hosted API would refuse this request before running it, or undefined. */
function hostedRefusal(method: string, path: string, body: Buffer | undefined): { status: number; message: string } | undefined {
  const pathname = path.split('?')[0]!;
  if (DOWNLOAD.test(pathname)) return undefined;
  if (/\/change-requests\/\d+(\/|$)/.test(pathname)) return { status: 404, message: 'Change request not found' };
  const published = publishedOperation(method, pathname.replace(/^\/v1/, ''));
  if (!published) return { status: 404, message: `No route ${method} ${pathname}` };
  if (!body || body.length === 0) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
  const unknown = unknownBodyFields(published.operation, parsed);
  return unknown.length > 0 ? { status: 400, message: `Invalid request body: unknown field ${unknown.join(', ')}` } : undefined;
}

export async function hostedProxy(target: string, options: HostedProxyOptions = {}): Promise<HostedProxy> {
  const seen: string[] = [];
  const statuses: number[] = [];
  const limit = rateWindow(options.requestsPerSecond);
  const hosted = !options.passThrough;
  let self = '';

  async function answer(req: IncomingMessage, res: ServerResponse, path: string, body: Buffer | undefined): Promise<number> {
    const method = req.method ?? 'GET';
    const rate = limit.take();
    if (rate.refused) {
      refuse(res, 429, 'Too many requests', rate.headers);
      return 429;
    }
    const refusal = hosted ? hostedRefusal(method, path, body) : undefined;
    if (refusal) {
      refuse(res, refusal.status, refusal.message, rate.headers);
      return refusal.status;
    }
    const headers = forwardHeaders(req);
    const upstream = await fetch(`${target}${path}`, { method, headers, ...(body ? { body } : {}) });
    const out: Record<string, string> = { ...rate.headers };
    upstream.headers.forEach((value, name) => {
      if (HOP_HEADERS.has(name) || name === 'retry-after' || name.startsWith('x-ratelimit-')) return;
      if (hosted && name === 'x-docsync-extensions') return;
      out[name] = value;
    });
    let bytes = Buffer.from(await upstream.arrayBuffer());
    const isJson = (upstream.headers.get('content-type') ?? '').includes('application/json');
    // Download URLs and other absolute URLs name the proxy, so what the client follows is counted here.
    if (isJson) bytes = Buffer.from(bytes.toString('utf8').replaceAll(`"${target}/`, `"${self}/`));
    if (!hosted) {
      res.writeHead(upstream.status, out);
      res.end(bytes);
      return upstream.status;
    }
    const merging = method === 'POST' ? MERGE_LIKE.exec(path) : null;
    if (merging && upstream.status === 409 && CONFLICTS_MESSAGE.test(bytes.toString('utf8'))) {
      // The published merge and update answer 200 with result "conflicts" and a revision.
      const cr = await fetch(`${target}/v1/spaces/${merging[1]}/change-requests/${merging[2]}`, { headers });
      const { revision } = (await cr.json()) as { revision: string };
      send(res, 200, { revision, result: 'conflicts' }, rate.headers);
      return 200;
    }
    const singlePage = /\/page\/[^/?]+(\?|$)|\/reusable-contents\/[^/?]+(\?|$)/.test(path);
    if (method === 'GET' && upstream.ok && !singlePage && isJson) {
      bytes = Buffer.from(JSON.stringify(withoutInlineMarkdown(JSON.parse(bytes.toString('utf8')))));
    }
    if (options.compatContentWrites && method === 'POST' && /\/change-requests\/[^/]+\/content(\?|$)/.test(path) && upstream.ok) {
      bytes = Buffer.from(JSON.stringify((JSON.parse(bytes.toString('utf8')) as { changeRequest: unknown }).changeRequest));
    }
    res.writeHead(upstream.status, out);
    res.end(bytes);
    return upstream.status;
  }

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      const index = seen.push(`${req.method} ${path}`) - 1;
      answer(req, res, path, chunks.length > 0 ? Buffer.concat(chunks) : undefined)
        .then((status) => (statuses[index] = status))
        .catch((error: unknown) => {
          statuses[index] = 502;
          if (!res.headersSent) refuse(res, 502, String(error));
          else res.end();
        });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  self = `http://127.0.0.1:${port}`;
  return {
    url: self,
    seen,
    statuses,
    block: (ms) => limit.block(ms),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
