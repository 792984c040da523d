import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * Real Git Sync folders (GitBook exports) live outside the repository, in the folder
 * DOCSYNC_CORPUS_DIR names (`.ci/run` sets it to the corpus beside the repository). Test files that read them have
 * `corpus` in their name: vitest.config.ts leaves them out of `npm test` when the variable is
 * unset, so they never skip or pass silently; set, a missing folder fails them loudly here.
 */
export function corpusRoot(): string {
  const dir = process.env.DOCSYNC_CORPUS_DIR;
  if (dir === undefined || dir === '')
    throw new Error('DOCSYNC_CORPUS_DIR is not set: corpus tests need the folder of real Git Sync exports (README.md, "Test it")');
  const root = resolve(dir);
  if (!existsSync(root) || !statSync(root).isDirectory()) throw new Error(`DOCSYNC_CORPUS_DIR=${dir}: no such folder (${root})`);
  return root;
}

/** One corpus folder by name (`currents-readme`), which must exist. */
export function corpusFolder(name: string): string {
  const dir = join(corpusRoot(), name);
  if (!existsSync(dir)) throw new Error(`corpus folder ${name} is missing from ${corpusRoot()}`);
  return dir;
}

/** Every export in the corpus (each sub-folder), in name order: the visible one and any others. */
export function corpusFolders(): string[] {
  const root = corpusRoot();
  const names = readdirSync(root, { withFileTypes: true })
    .filter((e) => e.isDirectory() && !e.name.startsWith('.'))
    .map((e) => e.name)
    .sort();
  if (names.length === 0) throw new Error(`DOCSYNC_CORPUS_DIR=${root} holds no export folders`);
  return names;
}
