import { dumpYaml, isMapping, loadYaml, sameYaml } from './yaml.js';

export interface FrontMatter {
  /** The YAML mapping; empty when there is no front matter. */
  data: Record<string, unknown>;
  /** The markdown after the closing `---` line (all of it without a block). */
  body: string;
  /**
   * The block's YAML as written, between the `---` lines (each line with its newline); undefined
   * without a block. Kept so that a block whose values did not change is written back as it was.
   */
  yaml?: string;
  /** 1-based line of each top-level key in the file, for messages. */
  lines: Map<string, number>;
}

/** `line`: the 1-based line of the file where the YAML went wrong. */
export type FrontMatterResult = { ok: true; value: FrontMatter } | { ok: false; line: number; message: string };

// A YAML block opened by `---` on the first line and closed by `---` (or `...`) on its own line,
// as GitBook, Jekyll and remark-frontmatter read it.
const BLOCK = /^---[ \t]*\r?\n(?:([\s\S]*?)\r?\n)?(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/;

// A top-level key at the start of a line: `key:`, `"key":`, `'key':`.
const KEY = /^(?:"([^"\n]*)"|'([^'\n]*)'|([^\s#:'"-][^:\n]*?|-[^\s:\n][^:\n]*?))[ \t]*:(?:[ \t]|\r?\n|$)/;

/**
 * Splits front matter from a markdown document: the one front matter reader of both halves (the
 * server's batch endpoint and the workspace's page files). A block that is not a YAML mapping is
 * an error with the file line it was found at.
 */
export function readFrontMatter(markdown: string): FrontMatterResult {
  const match = BLOCK.exec(markdown);
  if (!match) return { ok: true, value: { data: {}, body: markdown, lines: new Map() } };
  const yaml = match[1] === undefined ? '' : `${match[1]}\n`;
  const parsed = loadYaml(yaml);
  // The block's line n is file line n + 1 (after the opening `---`).
  if (!parsed.ok) return { ok: false, line: (parsed.line ?? 0) + 2, message: `front matter is not valid YAML: ${parsed.reason}` };
  const data = parsed.value ?? {};
  if (!isMapping(data)) return { ok: false, line: 2, message: 'front matter must be a YAML mapping (`key: value` lines)' };
  const lines = new Map<string, number>();
  yaml.split('\n').forEach((line, index) => {
    const key = KEY.exec(line);
    const name = key?.[1] ?? key?.[2] ?? key?.[3];
    if (name !== undefined && !lines.has(name)) lines.set(name, index + 2);
  });
  return { ok: true, value: { data, body: markdown.slice(match[0].length), yaml, lines } };
}

/** A front matter block for `data`, or '' when it is empty: the inverse of `readFrontMatter`. */
export function writeFrontMatter(data: Record<string, unknown>): string {
  if (Object.keys(data).length === 0) return '';
  return `---\n${dumpYaml(data)}---\n`;
}

/** The top-level entries of a block's YAML: its text before the first key, then each key's lines. */
function entries(yaml: string): { head: string; items: { key: string; text: string }[] } {
  const lines = yaml.split(/(?<=\n)/);
  const items: { key: string; text: string }[] = [];
  let head = '';
  for (const line of lines) {
    const key = KEY.exec(line);
    const name = key?.[1] ?? key?.[2] ?? key?.[3];
    if (name !== undefined) items.push({ key: name, text: line });
    else if (items.length === 0) head += line;
    else items[items.length - 1]!.text += line;
  }
  return { head, items };
}

/**
 * The YAML of a front matter block holding `want`, written over `yaml` (a block as written, its
 * values `was`): a key whose value is the same in both keeps its text as written (quoting,
 * folding, comments, order); a changed key is rewritten in place; a key gone is removed with its
 * lines; a new key is added at the end. `same(key)` may say two values are the same where the
 * data differs (a `hidden: false` the writer wrote that the page does not record). Text the
 * writer wrote between keys (comments, blank lines) stays with the key above it.
 * Without a readable `yaml` (or with keys written twice) the block is `want` written afresh.
 */
export function patchFrontMatter(
  yaml: string,
  want: Record<string, unknown>,
  was?: Record<string, unknown>,
  same?: (key: string) => boolean,
): string {
  const read = was === undefined ? loadYaml(yaml) : { ok: true as const, value: was };
  const { head, items } = entries(yaml);
  const keys = items.map((item) => item.key);
  if (!read.ok || !isMapping(read.value ?? {}) || new Set(keys).size !== keys.length)
    return Object.keys(want).length === 0 ? '' : dumpYaml(want);
  const old = (read.value ?? {}) as Record<string, unknown>;
  if (keys.length !== Object.keys(old).length || keys.some((key) => !(key in old)))
    return Object.keys(want).length === 0 ? '' : dumpYaml(want);
  const unchanged = same ?? ((key: string) => key in want && sameYaml(old[key], want[key]));
  let out = head;
  for (const item of items) {
    if (unchanged(item.key)) {
      out += item.text;
      continue;
    }
    if (!(item.key in want)) continue;
    // Comment and blank lines after the value stay; the value's own lines are replaced.
    const rest = item.text.replace(/^[^\n]*\n?/, '');
    const trailing = /(?:^|\n)((?:[ \t]*(?:#[^\n]*)?\n)*)$/.exec(rest)?.[1] ?? '';
    out += dumpYaml({ [item.key]: want[item.key] }) + trailing;
  }
  for (const [key, value] of Object.entries(want)) if (!keys.includes(key)) out += dumpYaml({ [key]: value });
  if (out !== '' && !out.endsWith('\n')) out += '\n';
  return out;
}
