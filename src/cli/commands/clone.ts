import { resolve } from 'node:path';
import { slugify } from '../../content/index.js';
import { clone } from '../../sync/index.js';
import { EXIT, ExitError } from '../exit.js';
import { printResult, type OutputOptions } from '../output.js';
import { clientFromLogin } from './sync-client.js';

/** A space id, or the id inside an app URL (`.../app/spaces/<id>`, also GitBook's `.../s/<id>`). */
export function spaceIdOf(argument: string): string {
  const match = /\/(?:spaces|s)\/([A-Za-z0-9_-]+)/.exec(argument);
  const id = match ? match[1]! : argument;
  if (!/^[A-Za-z0-9_-]+$/.test(id)) throw new ExitError(`SPACE must be a space id or its app URL, got "${argument}"`, EXIT.usage);
  return id;
}

/**
 * One terminal line rewritten in place with every stage seen so far, in the order they came:
 * `pages: 4200/10001, files: 3/3`, then `change requests: 1/2` as branches are made.
 */
function progressLine(): (event: { stage: string; done: number; total: number }) => void {
  const stages = new Map<string, string>();
  return ({ stage, done, total }) => {
    stages.set(stage, `${stage}: ${done}/${total}`);
    process.stderr.write(`\r${[...stages.values()].join(', ')}   `);
  };
}

/** `docsync clone SPACE [DIR]`. */
export async function cloneCommand(space: string, dir: string | undefined, options: OutputOptions): Promise<void> {
  const spaceId = spaceIdOf(space);
  const { client, apiUrl } = await clientFromLogin();
  try {
    const target = resolve(dir ?? slugify((await client.spaces.get(spaceId)).title || spaceId));
    const progress = process.stderr.isTTY && !options.json;
    const result = await clone({ client, apiUrl, spaceId, dir: target, onProgress: progress ? progressLine() : undefined });
    if (progress) process.stderr.write('\n');
    for (const problem of result.problems)
      console.error(`docsync: warning: ${problem.file}${problem.line ? `:${problem.line}` : ''}: ${problem.message}`);
    const branches = result.branches
      .map((b) => (b.changeRequest === undefined ? b.branch : `${b.branch} (#${b.changeRequest})`))
      .join(', ');
    printResult(
      options,
      `cloned "${result.spaceTitle}" at revision ${result.revision} into ${result.dir}: ${branches}; ${result.requests} requests`,
      result,
    );
  } finally {
    await client.close();
  }
}
