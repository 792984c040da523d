import { parseTag } from './tag.js';
import type { BlockProblem } from './types.js';

/** Markdown with every template tag on a line of its own between blank lines, and where each line came from. */
export interface SeparatedSource {
  text: string;
  /** 1-based line in the original markdown of each line of `text` (index 0 is line 1 of `text`). */
  lines: number[];
  /** Integration tags that never end (no `%}`): left as text, each a problem at its first line. */
  problems: BlockProblem[];
}

const FENCE = /^(`{3,}|~{3,})(.*)$/;
const TAG_TEXT = /\{%[\s\S]*?%\}/g;

/**
 * Puts each template tag on its own line, with blank lines around it, keeping the line's
 * indentation (so a tag inside a list item stays in it). Then remark reads a tag as a paragraph
 * of its own, never as part of the text around it (`{% hint %}\nText\n{% endhint %}` is one
 * paragraph to CommonMark). Fenced code is left as it is: a tag shown in a code sample is text.
 * An integration block (`{% @owner/block ... %}`) may run over several lines: see
 * {@link integrationTag}.
 */
export function separateTags(markdown: string): SeparatedSource {
  const out: string[] = [];
  const lines: number[] = [];
  const problems: BlockProblem[] = [];
  let fence: { char: string; length: number } | undefined;
  const push = (text: string, line: number) => {
    out.push(text);
    lines.push(line);
  };
  const blank = (line: number) => {
    if (out.length > 0 && out[out.length - 1]!.trim() !== '') push('', line);
  };
  const source = markdown.split('\n');
  for (let index = 0; index < source.length; index += 1) {
    const raw = source[index]!;
    const line = index + 1;
    const indent = /^[ \t]*/.exec(raw)![0];
    const rest = raw.slice(indent.length);
    const fenceMatch = FENCE.exec(rest.trimEnd());
    if (fence !== undefined) {
      if (fenceMatch && fenceMatch[1]![0] === fence.char && fenceMatch[1]!.length >= fence.length && fenceMatch[2]!.trim() === '')
        fence = undefined;
      push(raw, line);
      continue;
    }
    if (fenceMatch && !(fenceMatch[1]![0] === '`' && fenceMatch[2]!.includes('`'))) {
      fence = { char: fenceMatch[1]![0]!, length: fenceMatch[1]!.length };
      push(raw, line);
      continue;
    }
    const integration = rest.startsWith('{% @') ? integrationTag(source, index, indent.length) : undefined;
    if (integration === 'unclosed') {
      const name = /^\{%\s*(\S+)/.exec(rest)![1]!;
      problems.push({ line, message: `\`{% ${name}\` is never closed (\`%}\`): it shows as text` });
    } else if (integration !== undefined) {
      blank(line);
      integration.lines.forEach((text, i) => push(indent + text, line + Math.min(i, integration.end - index)));
      blank(line);
      index = integration.end;
      continue;
    }
    const pieces = tagPieces(rest);
    if (pieces === undefined) {
      push(raw, line);
      continue;
    }
    for (const piece of pieces) {
      blank(line);
      push(indent + piece, line);
    }
    blank(line);
  }
  return { text: out.join('\n'), lines, problems };
}

const INTEGRATION = /^\{%\s*(@[\w-]+\/[\w-]+)([\s\S]*?)\s*-?%\}[ \t]*$/;
/** The attributes after an integration's `content="..."`, up to the end of the tag. */
const AFTER_CONTENT = /^"(?:\s+[\w-]+="[^"\n]*")*\s*-?%\}[ \t]*$/;

/**
 * An integration block as Git Sync writes it: `{% @mermaid/diagram content="graph TD\nA-->B" %}`,
 * one tag alone on its line(s), its props unescaped (a diagram's quotes and line breaks are
 * written as they are). A Mermaid diagram becomes a fenced ```` ```mermaid ```` block (how GitBook
 * writes its native Mermaid blocks, so both render alike); any other integration becomes the
 * tag on one line. `end` is the index of the tag's last line; `unclosed` when no later line ends
 * the tag (`%}`) before a line opening another tag (`{%`, which no integration's props hold at a
 * line's start); undefined when the tag is not one of an integration.
 */
function integrationTag(
  source: readonly string[],
  start: number,
  indent: number,
): { lines: string[]; end: number } | 'unclosed' | undefined {
  let text = source[start]!.slice(indent);
  let end = start;
  while (!/%\}[ \t]*$/.test(text) && end + 1 < source.length && end - start < 2000) {
    // A line opening another tag ends the search: this tag was never closed (it would swallow that one).
    if (source[end + 1]!.trimStart().startsWith('{%')) return 'unclosed';
    end += 1;
    text += `\n${source[end]!}`;
  }
  if (!/%\}[ \t]*$/.test(text)) return 'unclosed';
  const match = INTEGRATION.exec(text);
  if (!match) return undefined;
  const name = match[1]!;
  const opening = text.indexOf('content="');
  if (name.toLowerCase() === '@mermaid/diagram' && opening >= 0) {
    // The content ends at the first quote followed by nothing but other props and `%}`.
    let close = opening + 8;
    do close = text.indexOf('"', close + 1);
    while (close >= 0 && !AFTER_CONTENT.test(text.slice(close)));
    const content = close >= 0 ? text.slice(opening + 9, close) : '';
    const run = Math.max(2, ...[...content.matchAll(/`+/g)].map((m) => m[0].length));
    const fenceText = '`'.repeat(run + 1);
    return { lines: [`${fenceText}mermaid`, ...content.replace(/^\n+|\n+$/g, '').split('\n'), fenceText], end };
  }
  return { lines: [`{% ${name}${match[2]!.replace(/\s+/g, ' ')} %}`], end };
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
