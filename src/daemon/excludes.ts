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
  let next: string;
  if (start < 0) {
    next = `${text}${text === '' || text.endsWith('\n') ? '' : '\n'}${block}\n`;
  } else {
    const endMark = text.indexOf(END, start);
    // Without its end line (deleted by hand), the block ends with the last of our patterns after
    // its first line: lines of the user's further down stay.
    let end = endMark >= 0 ? endMark + END.length : start + BEGIN.length;
    if (endMark < 0) {
      const ours = new Set(EDITOR_TEMP_PATTERNS);
      for (let at = end; text[at] === '\n';) {
        const lineEnd = text.indexOf('\n', at + 1);
        const line = text.slice(at + 1, lineEnd < 0 ? text.length : lineEnd);
        if (!ours.has(line)) break;
        end = at + 1 + line.length;
        at = end;
      }
    }
    next = `${text.slice(0, start)}${block}${text.slice(end)}`;
  }
  if (next === text) return false;
  await mkdir(join(workspace, '.git', 'info'), { recursive: true });
  await writeFile(path, next, 'utf8');
  return true;
}
