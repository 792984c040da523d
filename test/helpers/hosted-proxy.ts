import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HostedProxy {
  url: string;
  /** `METHOD path` of every request that reached the proxy, in arrival order. */
  seen: string[];
  close(): Promise<void>;
}

/** Response headers a proxy must not copy: fetch already decoded and re-framed the body. */
const HOP_HEADERS = new Set(['content-length', 'transfer-encoding', 'content-encoding', 'connection', 'keep-alive']);

/**
 * Our server answering as the hosted API does where the two differ in ways the sync tool must
 * cope with: no `x-docsync-extensions` header (so the client uses published operations only),
 * change requests addressed by id only (a number in the path is our server's convenience), and no
 * page bodies in trees and listings (each page's markdown is a request of its own).
 * Grows with the hosted-API emulation of issue 16.
 */
export interface HostedProxyOptions {
  /**
   * Answer content writes with the change request alone, the compat answer a server gives when
   * it ignores `compat=false` (docs/client.md): no `changes`, so no created page ids.
   */
  compatContentWrites?: boolean;
}

/** Page bodies only come one page at a time from the hosted API: drop them from trees and listings. */
function withoutInlineMarkdown(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutInlineMarkdown);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) if (key !== 'markdown') out[key] = withoutInlineMarkdown(inner);
  return out;
}

export async function hostedProxy(target: string, options: HostedProxyOptions = {}): Promise<HostedProxy> {
  const seen: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      seen.push(`${req.method} ${path}`);
      if (/\/change-requests\/\d+(\/|\?|$)/.test(path)) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { code: 404, message: 'Change request not found' } }));
        return;
      }
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) {
        if (typeof value === 'string' && name !== 'host' && name !== 'connection' && name !== 'content-length') headers[name] = value;
      }
      const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
      fetch(`${target}${path}`, { method: req.method, headers, ...(body ? { body } : {}) })
        .then(async (answer) => {
          const out: Record<string, string> = {};
          answer.headers.forEach((value, name) => {
            if (name !== 'x-docsync-extensions' && !HOP_HEADERS.has(name)) out[name] = value;
          });
          let bytes = Buffer.from(await answer.arrayBuffer());
          const singlePage = /\/page\/[^/?]+(\?|$)|\/reusable-contents\/[^/?]+(\?|$)/.test(path);
          if (req.method === 'GET' && answer.ok && !singlePage && (answer.headers.get('content-type') ?? '').includes('application/json')) {
            bytes = Buffer.from(JSON.stringify(withoutInlineMarkdown(JSON.parse(bytes.toString('utf8')))));
          }
          if (options.compatContentWrites && req.method === 'POST' && /\/change-requests\/[^/]+\/content(\?|$)/.test(path) && answer.ok) {
            bytes = Buffer.from(JSON.stringify((JSON.parse(bytes.toString('utf8')) as { changeRequest: unknown }).changeRequest));
          }
          res.writeHead(answer.status, out);
          res.end(bytes);
        })
        .catch((error: unknown) => {
          res.writeHead(502, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: { code: 502, message: String(error) } }));
        });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
