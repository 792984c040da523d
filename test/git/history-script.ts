import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gitCli } from './helpers.js';

/** Makes the working tree hold exactly `files`, then commits it with the git CLI. */
export async function cliCommit(dir: string, files: Record<string, string | Uint8Array>, message: string): Promise<string> {
  for (const entry of await readdir(dir)) if (entry !== '.git') await rm(join(dir, entry), { recursive: true, force: true });
  for (const [path, data] of Object.entries(files)) {
    await mkdir(join(dir, path, '..'), { recursive: true });
    await writeFile(join(dir, path), data);
  }
  await gitCli(dir, 'add', '-A');
  await gitCli(dir, 'commit', '-q', '--allow-empty', '-m', message);
  return (await gitCli(dir, 'rev-parse', 'HEAD')).trim();
}

/** `git diff --name-status -M<n>%` between two commits, as lines `A\tpath` / `R087\tfrom\tto`. */
export async function cliNameStatus(dir: string, from: string, to: string, min = 50): Promise<string[]> {
  const out = await gitCli(dir, 'diff', '--name-status', '-z', `-M${min}%`, from, to);
  const fields = out.split('\0').slice(0, -1);
  const lines: string[] = [];
  for (let i = 0; i < fields.length;) {
    const status = fields[i++]!;
    const width = status.startsWith('R') || status.startsWith('C') ? 2 : 1;
    lines.push([status, ...fields.slice(i, i + width)].join('\t'));
    i += width;
  }
  return lines.sort();
}

/** Lines of `n` distinct words, each line the same length, so similarity is easy to reason about. */
export const lines = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix} line ${String(i).padStart(3, '0')}\n`);
