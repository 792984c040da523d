import { publishWorkspace, type PublishResult } from '../../sync/index.js';
import { EXIT, ExitError } from '../exit.js';
import { printResult, type OutputOptions } from '../output.js';
import { pushLines } from './push-report.js';
import { clientFromLogin } from './sync-client.js';

export interface PublishCommandOptions extends OutputOptions {
  org?: string;
  subject?: string;
  dryRun?: boolean;
}

/** What `docsync push` prints when it created the workspace's space. */
export function publishLines(result: PublishResult): string[] {
  const cr = result.changeRequest;
  return [
    `created space "${result.title}" ${result.url} in organization ${result.orgId}`,
    ...pushLines(result.push),
    ...(cr ? [`merged change request #${cr.number} into main: the content is live (revision ${result.revision})`] : []),
    ...(result.conflicts.length > 0 ? [`  the pull of main left conflict markers in ${result.conflicts.join(', ')}`] : []),
  ];
}

/**
 * `docsync push` in a workspace `docsync init` made: creates its space in the stored login's
 * API and makes main live there. Exit 2 when the organization must be named (`--org`), 4 when
 * files were left out, 3 when the pull after the merge left conflict markers.
 */
export async function publishCommand(dir: string, branch: string | undefined, options: PublishCommandOptions): Promise<void> {
  if (branch !== undefined && branch !== 'main') {
    throw new ExitError(`${dir} has no space yet, and the push that creates it sends main; run docsync push without ${branch}`, EXIT.usage);
  }
  if (options.dryRun) {
    throw new ExitError(
      `${dir} has no space yet, so a dry run has nothing to compare with; docsync push without --dry-run creates the space and sends every page`,
      EXIT.usage,
    );
  }
  const { client, apiUrl } = await clientFromLogin();
  let result: PublishResult;
  try {
    const progress = process.stderr.isTTY && !options.json;
    result = await publishWorkspace(client, dir, {
      apiUrl,
      ...(options.org !== undefined ? { orgId: options.org } : {}),
      ...(options.subject !== undefined ? { subject: options.subject } : {}),
      ...(progress
        ? {
            onProgress: ({ stage, done, total }: { stage: string; done: number; total: number }) =>
              process.stderr.write(`\r${stage}: ${done}/${total}   `),
          }
        : {}),
    });
    if (progress && result.push.batches > 0) process.stderr.write('\n');
  } finally {
    await client.close();
  }
  printResult(options, publishLines(result).join('\n'), result);
  if (result.conflicts.length > 0)
    throw new ExitError(`the pull of main left conflict markers in ${result.conflicts.join(', ')}; resolve them and commit`, EXIT.conflict);
  const skipped = result.push.skipped;
  if (skipped.length > 0)
    throw new ExitError(`${skipped.length} file(s) were not sent: ${skipped.map((s) => s.path).join(', ')}`, EXIT.partial);
}
