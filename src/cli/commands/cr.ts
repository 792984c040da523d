import { resolve } from 'node:path';
import type { ChangeRequestStatus } from '../../model/index.js';
import { listChangeRequests, setChangeRequestStatus } from '../../sync/index.js';
import { EXIT, ExitError } from '../exit.js';
import { printResult, printRows, type OutputOptions } from '../output.js';
import { pullLine, pulledConflicts } from './conflict-report.js';
import { clientForWorkspace, withWorkspace } from './sync-client.js';

type Options = OutputOptions & { dir?: string };

/** `docsync cr list`: the space's change requests of one status, with their local branches. */
export async function crListCommand(options: Options & { status?: ChangeRequestStatus }): Promise<void> {
  const dir = resolve(options.dir ?? '.');
  const client = await clientForWorkspace(dir);
  try {
    const status = options.status ?? 'open';
    const rows = await listChangeRequests(client, dir, { status });
    printRows(
      options,
      rows,
      (r) => {
        const branch = r.branch === null ? '-' : r.followed ? r.branch : `${r.branch} (not followed)`;
        return `#${r.number}  ${r.status}${r.outdated ? ' (outdated)' : ''}  ${branch}  ${r.subject}`;
      },
      `no ${status} change requests`,
    );
  } finally {
    await client.close();
  }
}

/** `docsync cr open BRANCH` and `docsync cr archive BRANCH`. */
export async function crStatusCommand(target: string, status: 'open' | 'archived', options: Options): Promise<void> {
  const dir = resolve(options.dir ?? '.');
  await withWorkspace(dir, async (client) => {
    const result = await setChangeRequestStatus(client, dir, target, status);
    let human: string;
    if (status === 'archived') {
      human =
        result.branch === null
          ? `archived change request #${result.changeRequest}`
          : `archived change request #${result.changeRequest}; ${result.branch} is no longer followed (the git branch stays)`;
    } else if (result.pulled[0]?.created) {
      human = `opened change request #${result.changeRequest} on a new branch ${result.branch}`;
    } else {
      human = [`opened change request #${result.changeRequest}; following ${result.branch} again`, ...result.pulled.map(pullLine)].join(
        '\n',
      );
    }
    printResult(options, human, result);
    const markers = pulledConflicts(result.pulled);
    if (markers.length > 0)
      throw new ExitError(
        `the pull of ${result.branch} left conflict markers in ${markers.join(', ')}; resolve them and commit`,
        EXIT.conflict,
      );
  });
}
