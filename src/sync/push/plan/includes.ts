import { includeNames } from '../../../content/index.js';
import type { ContentChange } from '../../../model/index.js';
import type { WorkspaceInclude } from '../../../workspace/index.js';

/** One reusable content operation a push would send, with the include file it comes from. */
export interface IncludeChange {
  change: ContentChange & { operation: 'insert_reusable_content' | 'update_reusable_content' | 'delete_reusable_content' };
  /** File name in `.gitbook/includes/` (the local one; the remote one for a delete). */
  name: string;
}

/** Each include's file name in `.gitbook/includes/`, by id (the workspace's naming rule). */
function namesById(includes: readonly WorkspaceInclude[]): Map<string, string> {
  const names = includeNames(includes.map((i) => ({ title: i.title, ...(i.path !== undefined ? { name: i.path } : {}) })));
  return new Map(includes.map((include, i) => [include.id, names[i]!]));
}

/**
 * The operations that make the remote reusable contents the local ones, matched by id (local ids
 * come from the synced index by file path; a new file's is `new-include-...`, unknown remotely).
 * Deletes come first and inserts last, so a file name freed by one change can be taken by a later
 * one. Every insert names its file, so the server stores the include where the folder has it.
 * Both sides must be read alike: with a partial read, includes that did not change are on neither.
 */
export function includeChanges(remote: readonly WorkspaceInclude[], local: readonly WorkspaceInclude[]): IncludeChange[] {
  const remoteNames = namesById(remote);
  const localNames = namesById(local);
  const remoteById = new Map(remote.map((r) => [r.id, r]));
  const localIds = new Set(local.map((l) => l.id));
  const deletes: IncludeChange[] = remote
    .filter((r) => !localIds.has(r.id))
    .map((r) => ({ change: { operation: 'delete_reusable_content', reusableContent: r.id }, name: remoteNames.get(r.id)! }));
  const updates: IncludeChange[] = [];
  const inserts: IncludeChange[] = [];
  for (const include of local) {
    const name = localNames.get(include.id)!;
    const before = remoteById.get(include.id);
    if (!before) {
      inserts.push({
        change: { operation: 'insert_reusable_content', title: include.title, document: { markdown: include.markdown }, name },
        name,
      });
      continue;
    }
    const change: IncludeChange['change'] & { operation: 'update_reusable_content' } = {
      operation: 'update_reusable_content',
      reusableContent: include.id,
    };
    if (include.title !== before.title) change.title = include.title;
    if (include.markdown !== before.markdown) change.document = { markdown: include.markdown };
    if (name !== remoteNames.get(include.id)) change.name = name;
    if (Object.keys(change).length > 2) updates.push({ change, name });
  }
  return [...deletes, ...updates, ...inserts];
}
