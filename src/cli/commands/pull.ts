import { resolve } from 'node:path';
import { pull } from '../../sync/index.js';
import { EXIT, ExitError } from '../exit.js';
import { printRows, type OutputOptions } from '../output.js';
import { pullLine } from './conflict-report.js';
import { withWorkspace } from './sync-client.js';

/** `docsync pull`: every tracked branch to its remote head; exit 3 when a file has conflicts. */
export async function pullCommand(options: OutputOptions & { dir?: string }): Promise<void> {
  const dir = resolve(options.dir ?? '.');
  await withWorkspace(dir, async (client) => {
    const results = await pull(client, dir);
    printRows(options, results, pullLine, 'nothing tracked');
    const conflicts = results.flatMap((r) => r.conflicts.map((path) => `${r.branch}:${path}`));
    if (conflicts.length > 0) {
      throw new ExitError(`pull left conflict markers in ${conflicts.join(', ')}; resolve them and commit`, EXIT.conflict);
    }
  });
}
