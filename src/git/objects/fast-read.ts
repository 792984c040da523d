import * as git from 'isomorphic-git';
import type { TreeEntry } from 'isomorphic-git';
import { fastPathsEnabled } from '../fast-paths.js';
import type { Repo } from '../repo.js';
import { readObject } from './read-object.js';

/*
 * Reads of trees, blobs and commits that answer from docsync's own object reader (read-object.ts)
 * what isomorphic-git would answer, and leave to isomorphic-git everything else: an object that
 * is not stored, of another type than asked for, or a tree isomorphic-git would refuse (an
 * unknown mode, an unsafe name). So its errors, and its refusals, stay what they were, and
 * `DOCSYNC_GIT_FAST_PATHS=off` sends every read to it. Why: isomorphic-git parses a pack's whole
 * index (a few ms per 1,000 objects) and inflates with a JavaScript zlib, the cost of the
 * repository rather than of the few objects a push or pull reads.
 */

const MODES: Record<string, TreeEntry['type']> = {
  '40000': 'tree',
  '100644': 'blob',
  '100755': 'blob',
  '120000': 'blob',
  '160000': 'commit',
};

/**
 * A name isomorphic-git surely accepts (its parseBuffer refuses separators, `.`, `..`, `.git`
 * and what NTFS or HFS+ would read as `.git`); anything else is left for it to judge.
 */
function plainName(name: string): boolean {
  if (name === '' || name === '.' || name === '..' || /[/\\:\u200c-\u200f\u202a-\u202e\u206a-\u206f\ufeff]/.test(name)) return false;
  const normalized = name.toLowerCase().replace(/[. ]+$/, '');
  return normalized !== '.git' && !/^\.?git~[1-9]$/.test(normalized);
}

/** Tree entries as isomorphic-git's readTree gives them (folder mode `040000`, sorted by name in code point order); null to leave to it. */
function parseTree(content: Buffer): TreeEntry[] | null {
  const entries: TreeEntry[] = [];
  for (let at = 0; at < content.length;) {
    const space = content.indexOf(0x20, at);
    const nul = content.indexOf(0, space);
    if (space < 0 || nul < 0 || nul + 21 > content.length) return null;
    const stored = content.toString('latin1', at, space);
    const type = MODES[stored];
    const path = content.toString('utf8', space + 1, nul);
    if (type === undefined || !plainName(path)) return null;
    entries.push({ mode: stored === '40000' ? '040000' : stored, path, oid: content.toString('hex', nul + 1, nul + 21), type });
    at = nul + 21;
  }
  return entries.sort((a, b) => byCodePoint(a.path, b.path));
}

/** Code point order, as isomorphic-git sorts tree entries (UTF-16 order differs above U+FFFF). */
function byCodePoint(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/** The tree a commit names, from the first line of its text. */
const commitTreeOid = (content: Buffer) => /^tree ([0-9a-f]{40})\n/.exec(content.toString('latin1', 0, 46))?.[1];

/** The tag's object, from the first line of its text. */
const tagObjectOid = (content: Buffer) => /^object ([0-9a-f]{40})\n/.exec(content.toString('latin1', 0, 48))?.[1];

/**
 * The entries of the tree `oid` names (a tree, or a commit or tag peeled to one), as
 * isomorphic-git's `readTree` gives them and throwing as it throws.
 */
export async function readTreeEntries(r: Repo, oid: string): Promise<TreeEntry[]> {
  if (fastPathsEnabled()) {
    let at: string | undefined = oid;
    for (let peel = 0; at !== undefined && peel < 8; peel += 1) {
      const object = await readObject(r.gitdir, at);
      if (object === null) break;
      if (object.type === 'tree') {
        const entries = parseTree(object.content);
        if (entries !== null) return entries;
        break;
      }
      at = object.type === 'commit' ? commitTreeOid(object.content) : object.type === 'tag' ? tagObjectOid(object.content) : undefined;
    }
  }
  return (await git.readTree({ fs: r.fs, gitdir: r.gitdir, oid, cache: r.cache })).tree;
}

/** The bytes of blob `oid`, as isomorphic-git's `readBlob` gives them and throwing as it throws. */
export async function readBlobObject(r: Repo, oid: string): Promise<Uint8Array> {
  if (fastPathsEnabled()) {
    const object = await readObject(r.gitdir, oid);
    // A plain Uint8Array, as isomorphic-git gives (a Buffer compares and serialises otherwise).
    if (object?.type === 'blob') return new Uint8Array(object.content.buffer, object.content.byteOffset, object.content.length);
  }
  return (await git.readBlob({ fs: r.fs, gitdir: r.gitdir, oid, cache: r.cache })).blob;
}

/** The tree of commit `oid`, as isomorphic-git's `readCommit` gives it and throwing as it throws. */
export async function readCommitTree(r: Repo, oid: string): Promise<string> {
  if (fastPathsEnabled()) {
    const object = await readObject(r.gitdir, oid);
    const tree = object?.type === 'commit' ? commitTreeOid(object.content) : undefined;
    if (tree !== undefined) return tree;
  }
  return (await git.readCommit({ fs: r.fs, gitdir: r.gitdir, oid, cache: r.cache })).commit.tree;
}

/**
 * The blob at `path` (slash-separated, already checked) in the tree of commit `commit`, walked
 * one folder at a time; undefined when the walk does not end at a blob, for the caller to ask
 * isomorphic-git (whose error says what is missing).
 */
export async function readBlobAtPath(r: Repo, commit: string, path: string): Promise<Uint8Array | undefined> {
  if (!fastPathsEnabled()) return undefined;
  let entries: TreeEntry[] = await readTreeEntries(r, commit);
  const parts = path.split('/');
  for (const [i, name] of parts.entries()) {
    const entry = entries.find((e) => e.path === name);
    if (entry === undefined) return undefined;
    if (i === parts.length - 1) return entry.type === 'blob' ? readBlobObject(r, entry.oid) : undefined;
    if (entry.type !== 'tree') return undefined;
    entries = await readTreeEntries(r, entry.oid);
  }
  return undefined;
}
