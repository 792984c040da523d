import { resolve } from 'node:path';
import { isUnbound, mergePushed, push, readState, skippedPlace } from '../../sync/index.js';
import { EXIT, ExitError } from '../exit.js';
import { printResult, type OutputOptions } from '../output.js';
import { conflictLines, conflictNames, pullLine, pulledConflicts } from './conflict-report.js';
import { publishCommand } from './publish.js';
import { pushLines } from './push-report.js';
import { withWorkspace } from './sync-client.js';

export interface PushCommandOptions extends OutputOptions {
  dir?: string;
  subject?: string;
  merge?: boolean;
  dryRun?: boolean;
  allowMassDelete?: boolean;
  force?: boolean;
  /** Only for a workspace without a space yet: the organization to create it in. */
  org?: string;
}

/**
 * `docsync push [BRANCH]`: the branch's changes to its change request (opened when it has
 * none), `--merge` merges it after. Exit 4 when some files were left out, 3 on a merge conflict.
 * In a workspace `docsync init` made, it creates the space first (see publishCommand).
 */
export async function pushCommand(branch: string | undefined, options: PushCommandOptions): Promise<void> {
  const dir = resolve(options.dir ?? '.');
  if (await isUnbound(dir)) return publishCommand(dir, branch, options);
  if (options.org !== undefined) {
    const { binding } = await readState(dir);
    throw new ExitError(
      `--org is only for the first push of a workspace docsync init made; ${dir} has its space already (${binding.spaceId})`,
      EXIT.usage,
    );
  }
  await withWorkspace(dir, async (client) => {
    const progress = process.stderr.isTTY && !options.json;
    const result = await push(client, dir, {
      ...(branch !== undefined ? { branch } : {}),
      ...(options.subject !== undefined ? { subject: options.subject } : {}),
      dryRun: options.dryRun === true,
      allowMassDelete: options.allowMassDelete === true,
      force: options.force === true,
      ...(progress
        ? {
            onProgress: ({ stage, done, total }: { stage: string; done: number; total: number }) =>
              process.stderr.write(`\r${stage}: ${done}/${total}   `),
          }
        : {}),
    });
    if (progress && result.batches > 0 && !result.dryRun) process.stderr.write('\n');
    const lines = pushLines(result);
    let merged: Awaited<ReturnType<typeof mergePushed>> | undefined;
    if (options.merge && !result.dryRun && result.changeRequest !== undefined) {
      merged = await mergePushed(client, dir, result.branch);
      if (merged.kind === 'conflict')
        lines.push(`change request #${merged.changeRequest} cannot be merged:`, ...conflictLines(merged.conflicts, merged.message));
      else
        lines.push(
          `merged change request #${merged.changeRequest} into main (revision ${merged.revision})`,
          ...merged.pulled.map(pullLine),
        );
    }
    printResult(options, lines.join('\n'), merged ? { ...result, merge: merged } : result);
    if (merged?.kind === 'conflict') {
      throw new ExitError(
        `merge of change request #${merged.changeRequest} met conflicts in ${conflictNames(merged.conflicts)}; run docsync update ${result.branch}, resolve, push, then merge`,
        EXIT.conflict,
      );
    }
    if (merged?.kind === 'merged' && pulledConflicts(merged.pulled).length > 0) {
      throw new ExitError(
        `the pull of main left conflict markers in ${pulledConflicts(merged.pulled).join(', ')}; resolve them and commit`,
        EXIT.conflict,
      );
    }
    if (result.skipped.length > 0)
      throw new ExitError(`${result.skipped.length} file(s) were not sent: ${result.skipped.map(skippedPlace).join(', ')}`, EXIT.partial);
    if (result.unsentLinks.length > 0) {
      throw new ExitError(
        `${result.unsentLinks.length} link(s) do not resolve on the platform: ${result.unsentLinks.map((l) => `${l.path}:${l.line}`).join(', ')}`,
        EXIT.partial,
      );
    }
  });
}
