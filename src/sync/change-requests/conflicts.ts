import type { BranchState } from '../state/state.js';

/** One page, file, variable or reusable content the platform could not merge. */
export interface RemoteConflict {
  kind: 'page' | 'file' | 'variable' | 'reusable content';
  title: string;
  /** The page, file or reusable content id; the name of a variable. */
  id: string;
  /** Why, as the server said it (`both sides changed the same lines of its document`). */
  reason: string;
  /** The file of the workspace that holds it, when the branch's last sync knew it. */
  path?: string;
}

const KINDS = 'page|file|variable|reusable content';
// The server's 409 names each conflict as `page "Title" (id): why`, joined by "; "
// (src/server/revisions/merge-revisions.ts, conflictMessage).
const ENTRY = new RegExp(`(${KINDS}) "(.*?)" \\(([^()\\s]+)\\): (.*?)(?=; (?:${KINDS}) "|$)`, 'gs');

/**
 * The conflicts a merge or update refusal names. Our server lists them in its 409 message; the
 * hosted API's `result: "conflicts"` names none, and then the list is empty. Pure.
 */
export function parseConflicts(message: string): RemoteConflict[] {
  return [...message.matchAll(ENTRY)].map((m) => ({ kind: m[1] as RemoteConflict['kind'], title: m[2]!, id: m[3]!, reason: m[4]!.trim() }));
}

/**
 * Adds the workspace path of each conflict, from the ids a branch's last sync saw at each place
 * (the first index that knows the id wins). Pure.
 */
export function locateConflicts(conflicts: readonly RemoteConflict[], indexes: readonly BranchState['index'][]): RemoteConflict[] {
  const where = new Map<string, string>();
  const note = (id: string, path: string) => {
    if (!where.has(id)) where.set(id, path);
  };
  for (const index of indexes) {
    // Page keys are file paths, except for pages without a file (`page:`, `group:`, `link:`).
    for (const [key, id] of Object.entries(index.pages)) if (!/^(page|group|link):/.test(key)) note(`page ${id}`, key);
    for (const [name, id] of Object.entries(index.files)) note(`file ${id}`, `.gitbook/assets/${name}`);
    for (const [path, id] of Object.entries(index.includes)) note(`reusable content ${id}`, path);
  }
  return conflicts.map((conflict) => {
    const path = conflict.kind === 'variable' ? '.gitbook/vars.yaml' : where.get(`${conflict.kind} ${conflict.id}`);
    return path === undefined ? { ...conflict } : { ...conflict, path };
  });
}
