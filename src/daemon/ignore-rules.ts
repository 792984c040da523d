import { readFile } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';
import ignore, { type Ignore } from 'ignore';

/**
 * Files editors write beside the one being edited (swap, backup, lock files) and the temporary
 * files docsync itself renames into place. They are never documentation: the daemon writes these
 * patterns into `.git/info/exclude`, so git (and so the commit) leaves them out, and the watcher
 * does not wake up for them.
 */
export const EDITOR_TEMP_PATTERNS: readonly string[] = [
  // `\#`: a line starting with `#` is a comment in git's syntax, which would leave Emacs's
  // `#page.md#` files in.
  '*.swp',
  '*.swo',
  '*.swx',
  '*~',
  '.#*',
  '\\#*#',
  '4913',
  '.DS_Store',
  '*.docsync-tmp',
  '.~lock.*#',
];

/**
 * What git would leave out of a commit: `.git` itself (a folder, or the file of a worktree or
 * submodule, at any depth), `.gitignore` and `.git/info/exclude`.
 */
export async function loadIgnoreRules(workspace: string): Promise<Ignore> {
  const rules = ignore()
    .add(['.git'])
    .add([...EDITOR_TEMP_PATTERNS]);
  for (const file of [join(workspace, '.gitignore'), join(workspace, '.git', 'info', 'exclude')]) {
    try {
      rules.add(await readFile(file, 'utf8'));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  return rules;
}

/**
 * Whether the watcher should skip `absolute` (a path under `workspace`): folders are asked with
 * a trailing slash, so that `build/` in `.gitignore` matches the folder and not a file named so.
 */
export function isIgnoredPath(rules: Ignore, workspace: string, absolute: string, isFolder: boolean): boolean {
  const path = relative(workspace, absolute).split(sep).join('/');
  if (path === '' || path === '..' || path.startsWith('../') || isAbsolute(path)) return false;
  return rules.ignores(isFolder ? `${path}/` : path);
}
