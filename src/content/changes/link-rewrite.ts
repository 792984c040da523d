import type { Definition, Image, Link } from 'mdast';
import { visit } from 'unist-util-visit';
import { parseMarkdown } from '../markdown/processor.js';
import { formatDestination } from '../links/ref-paths.js';

/**
 * What to do with one link: leave it, point it elsewhere, or turn it into its text. A `raw` url
 * is spliced in as it is (a stored reference token, which holds no space or parenthesis).
 */
export type LinkDecision = { kind: 'keep' } | { kind: 'url'; url: string; raw?: boolean } | { kind: 'text' };

interface Edit {
  start: number;
  end: number;
  replacement: string;
  /** For a link turned into text: the label's range, in which nested images may be edited too. */
  inner?: [number, number];
}

/** Index just past the `]` closing the bracket opened at `open`, honouring nesting and escapes. */
function closingBracket(source: string, open: number): number | undefined {
  let depth = 0;
  for (let i = open; i < source.length; i += 1) {
    const c = source[i];
    if (c === '\\') i += 1;
    else if (c === '[') depth += 1;
    else if (c === ']' && (depth -= 1) === 0) return i + 1;
  }
  return undefined;
}

/** [start, end) of an inline link destination starting at `from` (after `(` or `]:`). */
function destination(source: string, from: number): [number, number] | undefined {
  let i = from;
  while (i < source.length && /[ \t\n]/.test(source[i]!)) i += 1;
  const start = i;
  if (source[i] === '<') {
    for (i += 1; i < source.length && source[i] !== '>'; i += 1) if (source[i] === '\\') i += 1;
    return source[i] === '>' ? [start, i + 1] : undefined;
  }
  let depth = 0;
  for (; i < source.length; i += 1) {
    const c = source[i]!;
    if (c === '\\') i += 1;
    else if (c === '(') depth += 1;
    else if (c === ')' && depth-- === 0) break;
    else if (/\s/.test(c)) break;
  }
  return [start, i];
}

export { formatDestination };

function editFor(source: string, node: Link | Image | Definition, decision: LinkDecision): Edit | undefined {
  const start = node.position?.start.offset;
  const end = node.position?.end.offset;
  if (start === undefined || end === undefined || decision.kind === 'keep') return undefined;
  const open = node.type === 'image' ? start + 1 : start;
  if (source[open] !== '[') return undefined; // an autolink: never a space path, kept as it is
  const close = closingBracket(source, open);
  if (close === undefined || close > end) return undefined;
  if (decision.kind === 'text') {
    if (node.type === 'definition') return { start, end, replacement: '' };
    return { start, end, replacement: '', inner: [open + 1, close - 1] };
  }
  const opener = node.type === 'definition' ? ':' : '(';
  if (source[close] !== opener) return undefined;
  const range = destination(source, close + 1);
  if (!range || range[1] > end) return undefined;
  return { start: range[0], end: range[1], replacement: decision.raw === true ? decision.url : formatDestination(decision.url) };
}

/**
 * Rewrites the links, images and link definitions of a markdown document by splicing the
 * source: everything `decide` keeps stays byte for byte as written. A link turned into text keeps
 * its label (an image its alt text); a definition turned into text is removed, so links using it
 * read as their literal text.
 */
export function rewriteLinks(markdown: string, decide: (url: string, kind: 'link' | 'image' | 'definition') => LinkDecision): string {
  const edits: Edit[] = [];
  visit(parseMarkdown(markdown), (node) => {
    if (node.type !== 'link' && node.type !== 'image' && node.type !== 'definition') return;
    const edit = editFor(markdown, node, decide(node.url, node.type));
    if (edit) edits.push(edit);
  });
  edits.sort((a, b) => a.start - b.start);
  return splice(markdown, edits, 0, markdown.length);
}

/** `source[from, to)` with `edits` (sorted, inside the range) applied; nested edits recurse. */
function splice(source: string, edits: Edit[], from: number, to: number): string {
  let out = '';
  let at = from;
  for (let i = 0; i < edits.length;) {
    const edit = edits[i]!;
    let j = i + 1;
    while (j < edits.length && edits[j]!.start < edit.end) j += 1;
    out += source.slice(at, edit.start);
    out += edit.inner ? splice(source, edits.slice(i + 1, j), edit.inner[0], edit.inner[1]) : edit.replacement;
    at = edit.end;
    i = j;
  }
  return out + source.slice(at, to);
}
