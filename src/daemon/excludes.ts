import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { EDITOR_TEMP_PATTERNS } from './ignore-rules.js';

const BEGIN = '# docsync: editor temporary files (kept up to date by docsync watch)';
const END = '# docsync: end';

/**
 * Makes `.git/info/exclude` leave editor temporary files out, in a block of its own that is
 * replaced on every start and leaves the user's own lines alone. Returns whether it changed.
 */
export async function ensureEditorExcludes(workspace: string): Promise<boolean> {
  const path = join(workspace, '.git', 'info', 'exclude');
  let text = '';
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const block = [BEGIN, ...EDITOR_TEMP_PATTERNS, END].join('\n');
  const start = text.indexOf(BEGIN);
  const end = start >= 0 ? text.indexOf(END, start) : -1;
  const next = start >= 0 && end >= 0
    ? `${text.slice(0, start)}${block}${text.slice(end + END.length)}`
    : `${text}${text === '' || text.endsWith('\n') ? '' : '\n'}${block}\n`;
  if (next === text) return false;
  await mkdir(join(workspace, '.git', 'info'), { recursive: true });
  await writeFile(path, next, 'utf8');
  return true;
}
