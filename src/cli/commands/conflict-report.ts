import type { BranchPull, KeptFile, RemoteConflict } from '../../sync/index.js';

/** One line per conflict the platform named, file first; the server's own words when it named none. */
export function conflictLines(conflicts: readonly RemoteConflict[], message: string): string[] {
  if (conflicts.length === 0) return [`  ${message}`];
  return conflicts.map((c) => `  ${c.path ?? `(${c.kind} ${c.id}, no file)`}: ${c.kind} "${c.title}": ${c.reason}`);
}

/** The files (or titles, for what has no file) of the conflicts, for a one-line summary. */
export function conflictNames(conflicts: readonly RemoteConflict[]): string {
  return conflicts.length === 0 ? 'the content' : [...new Set(conflicts.map((c) => c.path ?? `${c.kind} "${c.title}"`))].join(', ');
}

/** What happened to a file kept without markers (one side deleted it, the other edited it), and what to do. */
export function keptLine(branch: string, kept: KeptFile): string {
  switch (kept.what) {
    case 'deleted-remotely':
      return `${branch}:${kept.path}: deleted on the platform, edited here: your text is kept in ${kept.path}, still listed in SUMMARY.md; the next push sends it as a new page (delete the file to agree with the deletion)`;
    case 'deleted-locally':
      return `${branch}:${kept.path}: deleted here, edited on the platform: the platform's version is back in ${kept.path} and listed in SUMMARY.md; delete it again to delete the page`;
    case 'binary-both-changed':
      return `${branch}:${kept.path}: changed on both sides (not text): your version is kept; the platform's is in refs/docsync/remote/${branch}`;
  }
}

/** A pulled branch as `pull` prints it: the revisions, the files that changed, conflicts and kept files (one line each). */
export function pullLine(r: BranchPull): string {
  if (r.closed === 'deleted')
    return `${r.branch}: the git branch was deleted; no longer followed (its change request stays on the platform; docsync cr open ${r.branch} makes the branch again)`;
  if (r.created) return `${r.branch}: new branch for a change request opened on the platform (revision ${r.to})`;
  const kept = (r.kept ?? []).map((k) => `\n  ${keptLine(r.branch, k)}`).join('');
  // Main's change request edited on the platform changes main's files, not main's revision.
  if (r.from === r.to && r.changes.length === 0 && r.conflicts.length === 0 && r.outboxClosed === undefined)
    return `${r.branch}: up to date${kept}`;
  const changed = r.changes.map((c) => `${c.status} ${c.path}`).join(', ') || 'no file changes';
  const conflicts = r.conflicts.length > 0 ? `; CONFLICTS in ${r.conflicts.join(', ')} (resolve the markers, then commit)` : '';
  const outbox = r.outboxClosed !== undefined ? `; its change request was ${r.outboxClosed} (the next commits open a new one)` : '';
  return `${r.branch}: ${r.from} -> ${r.to}: ${changed}${conflicts}${outbox}${kept}`;
}

/** Conflict markers a pull left, as `branch:path`. */
export const pulledConflicts = (pulled: readonly BranchPull[]) => pulled.flatMap((r) => r.conflicts.map((path) => `${r.branch}:${path}`));
