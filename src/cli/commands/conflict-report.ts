import type { BranchPull, RemoteConflict } from '../../sync/index.js';

/** One line per conflict the platform named, file first; the server's own words when it named none. */
export function conflictLines(conflicts: readonly RemoteConflict[], message: string): string[] {
  if (conflicts.length === 0) return [`  ${message}`];
  return conflicts.map((c) => `  ${c.path ?? `(${c.kind} ${c.id}, no file)`}: ${c.kind} "${c.title}": ${c.reason}`);
}

/** The files (or titles, for what has no file) of the conflicts, for a one-line summary. */
export function conflictNames(conflicts: readonly RemoteConflict[]): string {
  return conflicts.length === 0 ? 'the content' : [...new Set(conflicts.map((c) => c.path ?? `${c.kind} "${c.title}"`))].join(', ');
}

/** A pulled branch as `pull` prints it: the revisions and the files that changed. */
export function pullLine(r: BranchPull): string {
  // Main's change request edited on the platform changes main's files, not main's revision.
  if (r.from === r.to && r.changes.length === 0 && r.conflicts.length === 0 && r.outboxClosed === undefined) return `${r.branch}: up to date`;
  const changed = r.changes.map((c) => `${c.status} ${c.path}`).join(', ') || 'no file changes';
  const conflicts = r.conflicts.length > 0 ? `; CONFLICTS in ${r.conflicts.join(', ')} (resolve the markers, then commit)` : '';
  const outbox = r.outboxClosed !== undefined ? `; its change request was ${r.outboxClosed} (the next commits open a new one)` : '';
  return `${r.branch}: ${r.from} -> ${r.to}: ${changed}${conflicts}${outbox}`;
}

/** Conflict markers a pull left, as `branch:path`. */
export const pulledConflicts = (pulled: readonly BranchPull[]) => pulled.flatMap((r) => r.conflicts.map((path) => `${r.branch}:${path}`));
