import { mkdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { readBlob } from '../../git/index.js';
import { writeFileAtomic } from '../../workspace/index.js';
import { stateDir } from '../state/state.js';

/**
 * What a workspace already holds of the platform's content, so a read fetches only what changed
 * (against the hosted API every page body and every file is a request of its own):
 * - a file whose `git.oid` is a blob of the workspace's repository is that blob: git's object id
 *   is the hash of the bytes, so the bytes need no download;
 * - a page body read before is kept by the page's `git.oid` (the id of the page's file as Git
 *   Sync writes it) in `.git/docsync/markdown/`, content-addressed, so it never goes stale.
 */
export interface KnownContent {
  markdown(oid: string): Promise<string | undefined>;
  /** The body of `oid`: held, or being read already, or read now with `read` and remembered. */
  markdownOnce(oid: string, read: () => Promise<string>): Promise<string>;
  /** The bytes of the file of `oid`, the same way. */
  fileOnce(oid: string, read: () => Promise<Uint8Array>): Promise<Uint8Array>;
  rememberMarkdown(oid: string, markdown: string): Promise<void>;
  fileBytes(oid: string): Promise<Uint8Array | undefined>;
  rememberFile(oid: string, bytes: Uint8Array): void;
}

const OID = /^[0-9a-f]{40}$/;

/**
 * A read by oid through a store: what it holds, or a read of the same oid in flight (two scopes
 * read at once, such as main and a change request, or a change request and its base, share it),
 * or `read` now, remembered. A failed read is not kept: the next caller tries again.
 */
function sharedReads<T>(held: (oid: string) => Promise<T | undefined>, remember: (oid: string, value: T) => Promise<void> | void) {
  const inFlight = new Map<string, Promise<T>>();
  return (oid: string, read: () => Promise<T>): Promise<T> => {
    const pending = inFlight.get(oid);
    if (pending) return pending;
    const value = (async () => {
      const known = await held(oid);
      if (known !== undefined) return known;
      const fresh = await read();
      await remember(oid, fresh);
      return fresh;
    })();
    inFlight.set(oid, value);
    value.catch(() => inFlight.delete(oid));
    return value;
  };
}

export function knownContent(dir: string): KnownContent {
  const bodyPath = (oid: string) => join(stateDir(dir), 'markdown', oid.slice(0, 2), oid.slice(2));
  const bodies: Pick<KnownContent, 'markdown' | 'rememberMarkdown'> = {
    async markdown(oid) {
      if (!OID.test(oid)) return undefined;
      return readFile(bodyPath(oid), 'utf8').catch(() => undefined);
    },
    async rememberMarkdown(oid, markdown) {
      if (!OID.test(oid)) return;
      const path = bodyPath(oid);
      await mkdir(dirname(path), { recursive: true });
      // Two commands filling the cache at once never mix their writes: each has its own temporary file.
      await writeFileAtomic(path, markdown);
    },
  };
  const files: Pick<KnownContent, 'fileBytes' | 'rememberFile'> = {
    async fileBytes(oid) {
      if (!OID.test(oid)) return undefined;
      return readBlob(dir, oid).catch(() => undefined);
    },
    // The bytes become a blob of the repository when the fetched content is committed.
    rememberFile() {},
  };
  return {
    ...bodies,
    ...files,
    markdownOnce: sharedReads(bodies.markdown, bodies.rememberMarkdown),
    fileOnce: sharedReads(files.fileBytes, files.rememberFile),
  };
}

/**
 * The same, held in memory for one command that reads several scopes before there is a
 * repository (a clone: main and each change request share most pages and files).
 */
export function memoryKnownContent(): KnownContent & { saveTo(dir: string): Promise<void> } {
  const bodies = new Map<string, string>();
  const files = new Map<string, Uint8Array>();
  const store: Pick<KnownContent, 'markdown' | 'rememberMarkdown'> = {
    markdown: async (oid) => bodies.get(oid),
    rememberMarkdown: async (oid, markdown) => void bodies.set(oid, markdown),
  };
  return {
    ...store,
    markdownOnce: sharedReads(store.markdown, store.rememberMarkdown),
    fileOnce: sharedReads(
      async (oid) => files.get(oid),
      (oid, bytes) => void files.set(oid, bytes),
    ),
    /** Keeps the bodies read in the workspace's store, for its later pulls. */
    async saveTo(dir) {
      const store = knownContent(dir);
      for (const [oid, markdown] of bodies) await store.rememberMarkdown(oid, markdown);
    },
    fileBytes: async (oid) => files.get(oid),
    rememberFile: (oid, bytes) => void files.set(oid, bytes),
  };
}
