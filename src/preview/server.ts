import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve, sep } from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import { contentTypeOf } from '../workspace/index.js';
import { previewAsset } from './assets.js';
import { escapeHtml } from '../render/index.js';
import { PreviewState, type PreviewChange } from './state.js';
import type { SpecResolver } from './openapi.js';

export interface PreviewOptions {
  dir: string;
  /** Port to try first; when it is taken, a free one. 0: a free one. @default 4000 */
  port?: number;
  /** Site title when SUMMARY.md has none. @default the folder's name */
  title?: string;
  /** Called with new problems as `file:line: message` lines, whenever rendering or a save finds some. */
  onProblems?: (lines: string[]) => void;
  /**
   * Stops a start in progress: `startPreview` then closes what it opened and rejects with the
   * signal's reason. Once started, stop the preview with `close()`.
   */
  signal?: AbortSignal;
  /**
   * Resolves the specs OpenAPI blocks name by slug or URL (the CLI passes the bound workspace's
   * platform); without it only spec files of the folder render.
   */
  specs?: SpecResolver;
}

export interface Preview {
  url: string;
  state: PreviewState;
  /**
   * Resolves when every page is read, the folder's problems reported and every page in the search
   * index, or as soon as the preview is closed.
   */
  indexed: Promise<void>;
  /** Stops the background reading and indexing, the watcher and the server (open pages' events included). */
  close(): Promise<void>;
}

/**
 * `docsync preview`: serves a workspace folder as it is on disk on 127.0.0.1, offline. Pages are
 * rendered when asked; a save re-renders only the pages that must change and tells open
 * browsers over server-sent events (`/_docsync/events`).
 */
export async function startPreview(options: PreviewOptions): Promise<Preview> {
  const dir = resolve(options.dir);
  // Closing aborts the work still running in the background (reading and indexing every page of
  // a large folder takes seconds): without it a stopped preview stayed alive until it was done.
  const closing = new AbortController();
  const signal = options.signal === undefined ? closing.signal : AbortSignal.any([options.signal, closing.signal]);
  const state = new PreviewState(dir, options.title ?? dir.split(sep).pop() ?? 'Preview', signal, options.specs);
  await state.loadStructure();
  const clients = new Set<ServerResponse>();
  const printed = new Set<string>();
  const report = () => {
    const fresh = state.problemLines().filter((line) => !printed.has(line));
    for (const line of fresh) printed.add(line);
    if (fresh.length > 0) options.onProblems?.(fresh);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => send(res, 500, 'text/plain; charset=utf-8', `preview: ${(error as Error).message}`));
  });
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://preview');
    const path = decodeURIComponent(url.pathname);
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'text/plain', 'method not allowed');
    if (path === '/_docsync/events') return events(res);
    if (path === '/_docsync/search')
      return send(res, 200, 'application/json', JSON.stringify(state.search.search(url.searchParams.get('q') ?? '')));
    const asset = previewAsset(url.pathname);
    if (asset?.body !== undefined) return send(res, 200, asset.type, asset.body);
    if (asset?.file !== undefined) return file(res, asset.file, asset.type);
    if (path.startsWith('/.gitbook/assets/')) {
      const target = join(dir, ...(state.site.prefix + path.slice(1)).split('/'));
      if (!target.startsWith(dir + sep) || path.split('/').includes('..')) return send(res, 404, 'text/plain', 'not found');
      return file(res, target, contentTypeOf(path));
    }
    const html = await state.pageHtml(path.length > 1 ? path.replace(/\/$/, '') : path);
    report();
    if (html === undefined)
      return send(
        res,
        404,
        'text/html; charset=utf-8',
        `<!doctype html><title>Not found</title><p>No page of SUMMARY.md is at ${escapeHtml(path)}. <a href="/">Home</a></p>`,
      );
    return send(res, 200, 'text/html; charset=utf-8', html);
  };
  const events = (res: ServerResponse) => {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
    res.write('retry: 500\n\n');
    clients.add(res);
    res.on('close', () => clients.delete(res));
  };
  const broadcast = (change: PreviewChange) => {
    for (const client of clients) client.write(`event: change\ndata: ${JSON.stringify(change)}\n\n`);
  };

  const watcher: FSWatcher = watch(dir, {
    ignoreInitial: true,
    ignored: (path) => /(^|[/\\])(\.git|node_modules)([/\\]|$)/.test(path.slice(dir.length)),
  });
  const onEvent = (kind: 'add' | 'change' | 'unlink') => (full: string) => {
    const path = full
      .slice(dir.length + 1)
      .split(sep)
      .join('/');
    state.fileChanged(path, kind).then(
      (change) => {
        if (change !== undefined) broadcast(change);
        report();
      },
      () => undefined,
    );
  };
  watcher.on('add', onEvent('add')).on('change', onEvent('change')).on('unlink', onEvent('unlink'));
  // chokidar emits no 'ready' once closed: closing ends the wait too.
  const watching = new Promise<void>((ready) => {
    watcher.once('ready', () => ready());
    closing.signal.addEventListener('abort', () => ready(), { once: true });
  });
  const close = async () => {
    closing.abort();
    await watcher.close();
    for (const client of clients) client.end();
    server.closeAllConnections();
    if (server.listening) await new Promise<void>((done) => server.close(() => done()));
  };

  // Listening first: the navigation is SUMMARY.md's, a page is read and rendered when asked.
  // Then, off the first request's way, every page is read (front matter: hidden pages,
  // descriptions), open pages told to refetch, the folder's problems reported, pages indexed.
  let port: number;
  try {
    port = await listen(server, options.port ?? 4000);
    signal.throwIfAborted();
  } catch (error) {
    await close();
    throw error;
  }
  const indexed = (async () => {
    await new Promise((resolve) => setTimeout(resolve, 0));
    await state.loadAll();
    broadcast({ all: true, urls: [] });
    report();
    await state.indexAll();
    await watching;
  })().catch((error: unknown) => {
    if (!signal.aborted) throw error;
  });
  indexed.catch(() => undefined);
  return { url: `http://127.0.0.1:${port}`, state, indexed, close };
}

/** Listens on 127.0.0.1:port, or on a free port when that one is taken. */
async function listen(server: Server, port: number): Promise<number> {
  const attempt = (p: number) =>
    new Promise<number>((done, fail) => {
      server.once('error', fail);
      server.listen(p, '127.0.0.1', () => {
        server.off('error', fail);
        done((server.address() as AddressInfo).port);
      });
    });
  try {
    return await attempt(port);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || port === 0) throw error;
    return attempt(0);
  }
}

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

async function file(res: ServerResponse, path: string, type: string): Promise<void> {
  const info = await stat(path).catch(() => undefined);
  if (info === undefined || !info.isFile()) return send(res, 404, 'text/plain', 'not found');
  res.writeHead(200, { 'content-type': type, 'content-length': info.size, 'cache-control': 'no-cache' });
  createReadStream(path).pipe(res);
}
