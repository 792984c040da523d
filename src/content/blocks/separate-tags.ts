import { parseTag } from './tag.js';

/** Markdown with every template tag on a line of its own between blank lines, and where each line came from. */
export interface SeparatedSource {
  text: string;
  /** 1-based line in the original markdown of each line of `text` (index 0 is line 1 of `text`). */
  lines: number[];
}

const FENCE = /^(`{3,}|~{3,})(.*)$/;
const TAG_TEXT = /\{%[\s\S]*?%\}/g;

/**
 * Puts each template tag on its own line, with blank lines around it, keeping the line's
 * indentation (so a tag inside a list item stays in it). Then remark reads a tag as a paragraph
 * of its own, never as part of the text around it (`{% hint %}\nText\n{% endhint %}` is one
 * paragraph to CommonMark). Fenced code is left as it is: a tag shown in a code sample is text.
 */
export function separateTags(markdown: string): SeparatedSource {
  const out: string[] = [];
  const lines: number[] = [];
  let fence: { char: string; length: number } | undefined;
  const push = (text: string, line: number) => {
    out.push(text);
    lines.push(line);
  };
  const blank = (line: number) => {
    if (out.length > 0 && out[out.length - 1]!.trim() !== '') push('', line);
  };
  markdown.split('\n').forEach((raw, index) => {
    const line = index + 1;
    const indent = /^[ \t]*/.exec(raw)![0];
    const rest = raw.slice(indent.length);
    const fenceMatch = FENCE.exec(rest.trimEnd());
    if (fence !== undefined) {
      if (fenceMatch && fenceMatch[1]![0] === fence.char && fenceMatch[1]!.length >= fence.length && fenceMatch[2]!.trim() === '')
        fence = undefined;
      push(raw, line);
      return;
    }
    if (fenceMatch && !(fenceMatch[1]![0] === '`' && fenceMatch[2]!.includes('`'))) {
      fence = { char: fenceMatch[1]![0]!, length: fenceMatch[1]!.length };
      push(raw, line);
      return;
    }
    const pieces = tagPieces(rest);
    if (pieces === undefined) {
      push(raw, line);
      return;
    }
    for (const piece of pieces) {
      blank(line);
      push(indent + piece, line);
    }
    blank(line);
  });
  return { text: out.join('\n'), lines };
}

/** The line cut into tags and the text between them; undefined when it holds no tag to set apart. */
function tagPieces(line: string): string[] | undefined {
  const matches = [...line.matchAll(TAG_TEXT)].filter((m) => parseTag(m[0]) !== undefined);
  if (matches.length === 0) return undefined;
  // A tag inside inline code (`{% hint %}` in a sentence about tags) is text: only a line that
  // starts with a tag, or has no code span, is cut.
  if (!line.startsWith('{%') && line.includes('`')) return undefined;
  const pieces: string[] = [];
  let at = 0;
  for (const match of matches) {
    const before = line.slice(at, match.index).trim();
    if (before !== '') pieces.push(before);
    pieces.push(match[0]);
    at = match.index + match[0].length;
  }
  const after = line.slice(at).trim();
  if (after !== '') pieces.push(after);
  return pieces;
}
