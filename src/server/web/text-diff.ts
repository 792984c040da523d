import { diffLines } from 'diff';
import { esc } from './html.js';

/** A line diff of two markdown texts as HTML: removed lines `-`, added lines `+`, the rest as context. */
export function textDiffHtml(before: string, after: string): string {
  const rows: string[] = [];
  for (const part of diffLines(before, after)) {
    const lines = part.value.replace(/\n$/, '').split('\n');
    const [cls, mark] = part.added ? ['diff-add', '+'] : part.removed ? ['diff-del', '-'] : ['', ' '];
    for (const line of lines) rows.push(`<div${cls ? ` class="${cls}"` : ''}>${mark} ${esc(line)}</div>`);
  }
  return `<pre class="diff-text">${rows.join('')}</pre>`;
}
