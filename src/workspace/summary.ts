/**
 * SUMMARY.md, the table of contents. Grammar (one construct per line, blank lines ignored):
 *
 *   # <summary title>                     optional, first
 *   ## <group title>                      a top-level group; following items belong to it
 *   <indent>* [<title>](<target> "<link title>")   an item; `-` or `+` bullets also read
 *
 * An item nests under the nearest item above it with a smaller indent, whatever the indent
 * width (GitBook accepts two or four spaces). Titles escape `\`, `[` and `]` with `\`.
 */

export interface SummaryItem {
  title: string;
  /** The link target as written, without `<>` and not decoded. */
  target: string;
  linkTitle?: string;
  /** 1-based line in SUMMARY.md. */
  line: number;
  items: SummaryItem[];
}

export interface SummaryGroup {
  title: string;
  line: number;
  items: SummaryItem[];
}

export interface Summary {
  title?: string;
  /** Items before the first group. */
  items: SummaryItem[];
  groups: SummaryGroup[];
}

export interface SummaryParse {
  summary: Summary;
  /** [line, message] for each line that is not part of the grammar. */
  errors: [number, string][];
}

/** Reads SUMMARY.md. Lines outside the grammar are reported and skipped. */
export function parseSummary(text: string): SummaryParse {
  const summary: Summary = { items: [], groups: [] };
  const errors: [number, string][] = [];
  let list = summary.items;
  let stack: { indent: number; item: SummaryItem }[] = [];
  let first = true;
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = index + 1;
    if (raw.trim() === '') return;
    const heading = /^(#{1,6})[ \t]+(.*?)[ \t]*$/.exec(raw);
    if (heading) {
      if (heading[1] === '#' && first) summary.title = heading[2]!;
      else if (heading[1] === '#') errors.push([line, 'a `# heading` may only open SUMMARY.md']);
      else {
        const group: SummaryGroup = { title: heading[2]!, line, items: [] };
        summary.groups.push(group);
        list = group.items;
        stack = [];
      }
      first = false;
      return;
    }
    first = false;
    const item = parseItem(raw, line);
    if (typeof item === 'string') return errors.push([line, item]);
    while (stack.length > 0 && stack.at(-1)!.indent >= item.indent) stack.pop();
    (stack.length === 0 ? list : stack.at(-1)!.item.items).push(item.item);
    stack.push(item);
  });
  return { summary, errors };
}

function parseItem(raw: string, line: number): { indent: number; item: SummaryItem } | string {
  const bullet = /^([ \t]*)[*+-][ \t]+\[/.exec(raw);
  if (!bullet) return 'expected `* [Title](path.md)` or a `## Group` heading';
  const indent = bullet[1]!.replace(/\t/g, '    ').length;
  let at = bullet[0].length;
  let title = '';
  for (; at < raw.length && raw[at] !== ']'; at += 1) {
    if (raw[at] === '\\' && /[!-/:-@[-`{-~]/.test(raw[at + 1] ?? '')) at += 1;
    title += raw[at];
  }
  const rest = /^\]\((?:<([^>]*)>|([^\s)]*))(?:[ \t]+"((?:[^"\\]|\\.)*)")?\)[ \t]*$/.exec(raw.slice(at));
  if (at >= raw.length || !rest) return 'expected `* [Title](path.md)` (an item is one link)';
  const item: SummaryItem = { title: title.trim(), target: rest[1] ?? rest[2]!, line, items: [] };
  if (rest[3] !== undefined) item.linkTitle = rest[3].replace(/\\(.)/g, '$1');
  return { indent, item };
}

const escapeTitle = (title: string) => title.replace(/[\\[\]]/g, (c) => `\\${c}`);
const writeTarget = (target: string) => (/[\s()<>]/.test(target) ? `<${target}>` : target);

function renderItems(items: readonly SummaryItem[], depth: number, out: string[]) {
  for (const item of items) {
    const linkTitle = item.linkTitle === undefined ? '' : ` "${item.linkTitle.replace(/["\\]/g, (c) => `\\${c}`)}"`;
    out.push(`${'  '.repeat(depth)}* [${escapeTitle(item.title)}](${writeTarget(item.target)}${linkTitle})\n`);
    renderItems(item.items, depth + 1, out);
  }
}

/** SUMMARY.md for a summary: `*` bullets, two spaces per level, one blank line between blocks. */
export function renderSummary(summary: Summary): string {
  const blocks: string[] = [];
  if (summary.title !== undefined) blocks.push(`# ${summary.title}\n`);
  const top: string[] = [];
  renderItems(summary.items, 0, top);
  if (top.length > 0) blocks.push(top.join(''));
  for (const group of summary.groups) {
    const lines: string[] = [];
    renderItems(group.items, 0, lines);
    blocks.push(lines.length > 0 ? `## ${group.title}\n\n${lines.join('')}` : `## ${group.title}\n`);
  }
  return blocks.join('\n');
}
