import { parse, stringify } from 'yaml';

export interface FrontMatter {
  /** The YAML mapping; empty when there is no front matter. */
  data: Record<string, unknown>;
  /** The markdown after the closing `---`. */
  body: string;
}

export type FrontMatterResult = { ok: true; value: FrontMatter } | { ok: false; message: string };

// A YAML block opened by `---` on the first line and closed by `---` (or `...`) on its own line,
// as GitBook, Jekyll and remark-frontmatter read it.
const BLOCK = /^---[ \t]*\r?\n(?:([\s\S]*?)\r?\n)?(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/;

/** Splits front matter from a markdown document. A block that is not a YAML mapping is a problem. */
export function readFrontMatter(markdown: string): FrontMatterResult {
  const match = BLOCK.exec(markdown);
  if (!match) return { ok: true, value: { data: {}, body: markdown } };
  let data: unknown;
  try {
    data = parse(match[1] ?? '');
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    return { ok: false, message: `front matter is not valid YAML: ${reason}` };
  }
  if (data === null || data === undefined) data = {};
  if (typeof data !== 'object' || Array.isArray(data))
    return { ok: false, message: 'front matter must be a YAML mapping (`key: value` lines)' };
  return { ok: true, value: { data: data as Record<string, unknown>, body: markdown.slice(match[0].length) } };
}

/** A front matter block for `data`, or '' when it is empty: the inverse of `readFrontMatter`. */
export function writeFrontMatter(data: Record<string, unknown>): string {
  if (Object.keys(data).length === 0) return '';
  return `---\n${stringify(data)}---\n`;
}
