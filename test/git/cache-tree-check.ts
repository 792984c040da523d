import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CacheTree, parseCacheTree } from '../../src/git/format/cache-tree.js';
import { parseIndex } from '../../src/git/format/index-read.js';

/** The index's cache tree as parsed, null when it has none; throws when git's own reader would not take it. */
export function readCacheTree(dir: string): CacheTree | null {
  const parsed = parseIndex(readFileSync(join(dir, '.git', 'index')));
  if ('unsupported' in parsed) throw new Error(parsed.unsupported);
  if (parsed.cacheTree === undefined) return null;
  const tree = parseCacheTree(parsed.cacheTree);
  if (tree === null) throw new Error('malformed cache tree');
  return tree;
}

/**
 * Checks every valid node of the index's cache tree against the git CLI: its oid is what
 * `git write-tree --prefix` gives for that folder from an index holding the same entries and no
 * cache tree (so git hashes them itself), and its entry count the entries under the folder.
 * @returns how many valid nodes were checked.
 */
export function checkCacheTree(dir: string): number {
  const tree = readCacheTree(dir);
  if (tree === null) return 0;
  const scratch = mkdtempSync(join(tmpdir(), 'docsync-cache-tree-'));
  try {
    const env = { ...process.env, GIT_INDEX_FILE: join(scratch, 'index'), GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };
    const listing = execFileSync('git', ['ls-files', '-s', '-z'], { cwd: dir, encoding: 'utf8' });
    execFileSync('git', ['update-index', '-z', '--index-info'], { cwd: dir, env, input: listing });
    const paths = listing
      .split('\0')
      .filter(Boolean)
      .map((line) => line.slice(line.indexOf('\t') + 1));
    let checked = 0;
    const visit = (node: CacheTree, prefix: string) => {
      if (node.oid !== undefined) {
        const expected = execFileSync('git', ['write-tree', ...(prefix ? [`--prefix=${prefix}`] : [])], {
          cwd: dir,
          env,
          encoding: 'utf8',
        });
        if (node.oid !== expected.trim()) throw new Error(`cache tree of "${prefix}" is ${node.oid}, git hashes ${expected.trim()}`);
        const count = paths.filter((path) => path.startsWith(prefix)).length;
        if (node.entryCount !== count)
          throw new Error(`cache tree of "${prefix}" counts ${node.entryCount} entries, the index has ${count}`);
        checked += 1;
      }
      for (const [name, sub] of node.subtrees) visit(sub, `${prefix}${name}/`);
    };
    visit(tree, '');
    return checked;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
