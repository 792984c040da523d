import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkSpaceTitle, initWorkspace } from '../../sync/index.js';
import { EXIT, ExitError } from '../exit.js';
import { printResult, type OutputOptions } from '../output.js';

/**
 * The package's `templates/workspace`: three folders up from this module, which sits in
 * `src/cli/commands/` under tsx and in `dist/cli/commands/` once built.
 */
export const WORKSPACE_TEMPLATE = fileURLToPath(new URL('../../../templates/workspace', import.meta.url));

/** `--title`, checked as the API will check it, as a usage error. */
export function titleOption(title: string): string {
  try {
    return checkSpaceTitle(title);
  } catch (error) {
    throw new ExitError(`--title: ${(error as Error).message}`, EXIT.usage);
  }
}

/** `docsync init DIR [--title TITLE]`: a new workspace from the template, with no space yet. */
export async function initCommand(dir: string, options: OutputOptions & { title?: string }): Promise<void> {
  const title = options.title === undefined ? undefined : titleOption(options.title);
  const result = await initWorkspace(resolve(dir), WORKSPACE_TEMPLATE, title === undefined ? {} : { title });
  printResult(
    options,
    `created workspace "${result.title}" in ${result.dir} (${result.files.length} files, committed on main); edit the pages, then run docsync push to create its space`,
    result,
  );
}
