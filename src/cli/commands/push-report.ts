import type { ContentChange } from '../../model/index.js';
import { skippedPlace, type PushResult } from '../../sync/index.js';

/** One planned operation as a line: what `--dry-run` shows. */
export function operationLine(change: ContentChange): string {
  switch (change.operation) {
    case 'insert_page': {
      const where = change.into === undefined ? 'at the top level' : `under ${change.into}`;
      return `insert page "${change.title ?? ''}"${change.slug ? ` (${change.slug})` : ''} ${where} at ${change.at ?? 'the end'}`;
    }
    case 'update_page': {
      const fields = Object.keys(change).filter((key) => !['operation', 'page', 'document', 'into', 'at'].includes(key));
      const parts = [
        ...(change.document !== undefined ? ['document'] : []),
        ...fields,
        ...(change.into !== undefined || change.at !== undefined
          ? [
              `move ${change.into === null ? 'to the top level' : change.into === undefined ? '' : `under ${change.into}`} at ${change.at ?? 'the end'}`.replace(
                '  ',
                ' ',
              ),
            ]
          : []),
      ];
      return `update page ${change.page}: ${parts.join(', ')}`;
    }
    case 'delete_page':
      return `delete page ${change.page}`;
    case 'insert_files':
      return `upload ${change.files.map((f) => f.name).join(', ')}`;
    case 'set_git_file':
      // A file of the folder that is no page (docs/workspace-format.md, "Files kept as written").
      return change.text === null ? `remove folder file ${change.path}` : `store folder file ${change.path}`;
    default:
      return change.operation;
  }
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : /(s|x|ch|sh)$/.test(word) ? 'es' : 's'}`;

/** The lines `push` prints for one branch (also one branch of `sync`). */
export function pushLines(result: PushResult): string[] {
  const { counts } = result;
  const summary = [
    counts.inserted > 0 ? `${counts.inserted} inserted` : '',
    counts.updated > 0 ? `${counts.updated} updated` : '',
    counts.moved > 0 ? `${counts.moved} moved` : '',
    counts.deleted > 0 ? `${counts.deleted} deleted` : '',
    counts.files > 0 ? plural(counts.files, 'file') : '',
  ]
    .filter(Boolean)
    .join(', ');
  const lines: string[] = [];
  const cr = result.changeRequest;
  if (result.dryRun) {
    lines.push(
      result.changes.length === 0
        ? `${result.branch}: nothing to push`
        : `${result.branch}: would send ${plural(result.changes.length, 'operation')} in ${plural(result.batches, 'batch')}${cr ? ` to change request #${cr.number}` : ' to a new change request'} (${summary})`,
    );
    lines.push(...result.changes.map((c) => `  ${operationLine(c)}`));
  } else if (result.changes.length === 0) {
    lines.push(`${result.branch}: nothing to push${cr ? ` (change request #${cr.number})` : ''}`);
  } else {
    lines.push(
      `${result.branch}: pushed to ${cr!.opened ? 'new ' : ''}change request #${cr!.number} ${cr!.url} (${summary}; ${plural(result.batches, 'batch')}${result.resumed ? ', resuming an interrupted push' : ''}), revision ${result.revision}`,
    );
  }
  if (result.savedLocalEdits) lines.push(`  committed uncommitted edits first (${result.savedLocalEdits.slice(0, 8)})`);
  if (result.normalised.length > 0) lines.push(`  committed the server's form of ${result.normalised.join(', ')}`);
  for (const skipped of result.skipped) lines.push(`  NOT SENT ${skippedPlace(skipped)}: ${skipped.reason}`);
  for (const unlisted of result.unlisted) lines.push(`  NOT A PAGE ${skippedPlace(unlisted)}: ${unlisted.reason}`);
  for (const link of result.unsentLinks)
    lines.push(
      `  LINK NOT STORED ${link.path}:${link.line}: ${link.url} does not resolve on the platform (kept in the file; the platform shows its text)`,
    );
  if (result.undeletableFiles.length > 0)
    lines.push(`  kept on the platform (the API cannot delete files): ${result.undeletableFiles.join(', ')}`);
  return lines;
}
