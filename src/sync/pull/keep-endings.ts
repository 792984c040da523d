import { branchOid, commitFiles, diffTrees, readBlob } from '../../git/index.js';
import { DOCSYNC_AUTHOR } from '../author.js';
import { usesCrlf, withCrlfAt } from '../line-endings.js';

const SCRATCH = 'refs/docsync/scratch';

/**
 * The platform's content (LF) with each file the branch keeps in CRLF (at `branch`, its head) in CRLF
 * too, so a pull neither mixes endings in a CRLF file nor rewrites it. Only the files that differ
 * from the branch are read (a scratch commit of `files` finds them by object id), so the cost
 * follows the CRLF files and the change, not the space.
 */
export async function keepEndings(dir: string, branch: string, files: ReadonlyMap<string, Uint8Array>): Promise<Map<string, Uint8Array>> {
  const scratch = await commitFiles(dir, {
    branch: SCRATCH,
    parent: await branchOid(dir, SCRATCH),
    files,
    message: 'docsync: scratch',
    author: DOCSYNC_AUTHOR,
  });
  const crlf = new Set<string>();
  for (const change of await diffTrees(dir, branch, scratch, { renames: false })) {
    if (change.status === 'modified' && usesCrlf(change.path, await readBlob(dir, change.oldOid))) crlf.add(change.path);
  }
  return crlf.size === 0 ? new Map(files) : withCrlfAt(files, crlf);
}
