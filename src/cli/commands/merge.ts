import { resolve } from 'node:path';
import { merge } from '../../sync/index.js';
import { EXIT, ExitError } from '../exit.js';
import { printResult, type OutputOptions } from '../output.js';
import { conflictLines, conflictNames, pullLine, pulledConflicts } from './conflict-report.js';
import { withWorkspace } from './sync-client.js';

/**
 * `docsync merge [BRANCH]`: merges the branch's change request on the platform and pulls main.
 * Exit 3 when the platform refuses for conflicts (the pages are listed) or the pull of main
 * left conflict markers in local commits on main; exit 4 when the branch holds what this server
 * cannot take (named; main goes on without it).
 */
export async function mergeCommand(branch: string | undefined, options: OutputOptions & { dir?: string }): Promise<void> {
  const dir = resolve(options.dir ?? '.');
  await withWorkspace(dir, async (client) => {
    const result = await merge(client, dir, branch);
    if (result.kind === 'conflict') {
      const count = result.conflicts.length;
      const head = `change request #${result.changeRequest} (${result.branch}) cannot be merged: ${count === 0 ? 'conflicts' : `${count} conflict${count === 1 ? '' : 's'}`}`;
      printResult(options, [head, ...conflictLines(result.conflicts, result.message)].join('\n'), result);
      throw new ExitError(
        `merge of change request #${result.changeRequest} met conflicts in ${conflictNames(result.conflicts)}; run docsync update ${result.branch} to bring main's changes into it, resolve what still conflicts on the branch and push, then merge again`,
        EXIT.conflict,
      );
    }
    const what = result.already
      ? `change request #${result.changeRequest} was merged already`
      : `merged change request #${result.changeRequest} into main`;
    const after =
      result.branch === 'main'
        ? "main's next commits go to a new change request"
        : `${result.branch} is no longer followed (the git branch stays)`;
    const notSent = result.notSent.map((s) => `  NOT SENT ${s.path}: ${s.reason} (kept on ${result.branch} only)`);
    const lines = [`${what} (revision ${result.revision}); ${after}`, ...notSent, ...result.pulled.map(pullLine)];
    printResult(options, lines.join('\n'), result);
    const markers = pulledConflicts(result.pulled);
    if (markers.length > 0)
      throw new ExitError(`the pull of main left conflict markers in ${markers.join(', ')}; resolve them and commit`, EXIT.conflict);
    if (result.notSent.length > 0) {
      throw new ExitError(
        `merged without what this server cannot take, kept on ${result.branch} only: ${[...new Set(result.notSent.map((s) => s.path))].join(', ')}`,
        EXIT.partial,
      );
    }
  });
}
