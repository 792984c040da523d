import { resolve } from 'node:path';
import { update } from '../../sync/index.js';
import { EXIT, ExitError } from '../exit.js';
import { printResult, type OutputOptions } from '../output.js';
import { conflictLines, conflictNames, pullLine, pulledConflicts } from './conflict-report.js';
import { withWorkspace } from './sync-client.js';

/**
 * `docsync update [BRANCH]`: brings main into the branch's change request on the platform and
 * pulls the branch. Exit 3 when the platform refuses for conflicts (the pages are listed) or the
 * pull left conflict markers in local commits.
 */
export async function updateCommand(branch: string | undefined, options: OutputOptions & { dir?: string }): Promise<void> {
  const dir = resolve(options.dir ?? '.');
  await withWorkspace(dir, async (client) => {
    const result = await update(client, dir, branch);
    if (result.kind === 'conflict') {
      const count = result.conflicts.length;
      const head = `change request #${result.changeRequest} (${result.branch}) cannot take main's changes: ${count === 0 ? 'conflicts' : `${count} conflict${count === 1 ? '' : 's'}`}`;
      printResult(options, [head, ...conflictLines(result.conflicts, result.message)].join('\n'), result);
      const paths = result.conflicts.flatMap((c) => (c.path ? [c.path] : []));
      const diff = paths.length > 0 ? ` (git diff main ${result.branch} -- ${paths.join(' ')})` : '';
      throw new ExitError(
        `update of change request #${result.changeRequest} met conflicts in ${conflictNames(result.conflicts)}; make those lines agree with main on ${result.branch}${diff}, push, then update again`,
        EXIT.conflict,
      );
    }
    const lines = [
      `updated change request #${result.changeRequest} (${result.branch}) with main: revision ${result.revision}`,
      ...result.pulled.map(pullLine),
    ];
    printResult(options, lines.join('\n'), result);
    const markers = pulledConflicts(result.pulled);
    if (markers.length > 0)
      throw new ExitError(
        `the pull of ${result.branch} left conflict markers in ${markers.join(', ')}; resolve them and commit`,
        EXIT.conflict,
      );
  });
}
