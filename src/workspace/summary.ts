/**
 * SUMMARY.md, the table of contents. Grammar (one construct per line, blank lines ignored):
 *
 *   # <summary title>                     optional, first
 *   ## <group title>                      a top-level group; following items belong to it
 *   ## <a href="#<slug>" id="<slug>"></a><group title>   a group whose slug is not its title's
 *   ***                                   ends the group above: following items are top-level
 *   <indent>* [<title>](<target> "<link title>")   an item; `-` or `+` bullets also read
 *   <indent>* ```yaml ... ```             a computed page (GitBook's OpenAPI reference entry)
 *
 * An item nests under the nearest item above it with a smaller indent, whatever the indent
 * width (GitBook writes two spaces, people four). Titles escape `\`, `` ` ``, `[` and `]` with
 * `\` (as GitBook writes them) and any other ASCII punctuation may be escaped. An empty bullet
 * (`*` alone, which GitBook writes for an entry it could not export) holds nothing.
 */

export interface SummaryItem {
  title: string;
  /** The link target as written, without `<>` and not decoded. */
  target: string;
  linkTitle?: string;
  /**
   * A computed page: the YAML of its fenced block as written (without the fence and the item's
   * indent), with `title` and `target` ''. GitBook writes OpenAPI references this way.
   */
  computed?: string;
  /** 1-based line in SUMMARY.md. */
  line: number;
  items: SummaryItem[];
}

export interface SummaryGroup {
  title: string;
  /** The `<a href id>` anchor before the title: the group's slug where its title does not give it. */
  anchor?: string;
  line: number;
  items: SummaryItem[];
}

/** What SUMMARY.md lists at the top level, in order: runs of items and groups. */
export type SummaryPart = { type: 'items'; items: SummaryItem[] } | ({ type: 'group' } & SummaryGroup);

export interface Summary {
  title?: string;
  parts: SummaryPart[];
}

export interface SummaryParse {
  summary: Summary;
  /** [line, message] for each line that is not part of the grammar. */
  errors: [number, string][];
}

/** Every item of a summary, top-level ones and those of groups, in order (not their children). */
export const topItems = (summary: Summary): SummaryItem[] => summary.parts.flatMap((part) => part.items);

const GROUP_ANCHOR = /^<a\s+href="#([^"]*)"\s+id="([^"]*)"\s*>\s*<\/a>\s*/;
const RULE = /^ {0,3}(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})$/;
const FENCE = /^([ \t]*)([*+-])[ \t]+(`{3,}|~{3,})[ \t]*([^`\s]*)[ \t]*$/;

/** Reads SUMMARY.md. Lines outside the grammar are reported and skipped. */
export function parseSummary(text: string): SummaryParse {
  const summary: Summary = { parts: [] };
  const errors: [number, string][] = [];
  let list: SummaryItem[] | undefined;
  let stack: { indent: number; item: SummaryItem }[] = [];
  let first = true;
  const lines = text.split(/\r?\n/);
  const topLevel = () => {
    if (list === undefined) {
      const part: SummaryPart = { type: 'items', items: [] };
      summary.parts.push(part);
      list = part.items;
    }
    return list;
  };
  const place = (found: { indent: number; item: SummaryItem }) => {
    while (stack.length > 0 && stack.at(-1)!.indent >= found.indent) stack.pop();
    (stack.length === 0 ? topLevel() : stack.at(-1)!.item.items).push(found.item);
    stack.push(found);
  };
  for (let index = 0; index < lines.length; index += 1) {
    const raw = lines[index]!;
    const line = index + 1;
    if (raw.trim() === '') continue;
    const wasFirst = first;
    first = false;
    const heading = /^(#{1,6})[ \t]+(.*?)[ \t]*$/.exec(raw);
    if (heading) {
      if (heading[1] === '#' && wasFirst) summary.title = heading[2]!;
      else if (heading[1] === '#') errors.push([line, 'a `# heading` may only open SUMMARY.md']);
      else {
        const anchor = GROUP_ANCHOR.exec(heading[2]!);
        const group: SummaryPart = { type: 'group', title: anchor ? heading[2]!.slice(anchor[0].length) : heading[2]!, line, items: [] };
        if (anchor && anchor[1] === anchor[2] && anchor[1] !== '') group.anchor = anchor[1];
        summary.parts.push(group);
        list = group.items;
        stack = [];
      }
      continue;
    }
    if (RULE.test(raw)) {
      // A thematic break closes the group above: GitBook lists top-level pages after groups so.
      list = undefined;
      stack = [];
      continue;
    }
    if (/^[ \t]*[*+-][ \t]*$/.test(raw)) continue;
    const fence = FENCE.exec(raw);
    if (fence) {
      const end = computedItem(lines, index, fence, line);
      if (typeof end === 'string') {
        errors.push([line, end]);
        continue;
      }
      place(end.found);
      index = end.last;
      continue;
    }
    const item = parseItem(raw, line);
    if (typeof item === 'string') {
      errors.push([line, item]);
      continue;
    }
    place(item);
  }
  return { summary, errors };
}

/** A fenced block as an item: its lines up to the closing fence, less the item's content indent. */
function computedItem(
  lines: readonly string[],
  start: number,
  fence: RegExpExecArray,
  line: number,
): { found: { indent: number; item: SummaryItem }; last: number } | string {
  const indent = fence[1]!.replace(/\t/g, '    ').length;
  // The block's lines are indented to the column the fence opens at (the item's content).
  const content = fence[0].indexOf(fence[3]!);
  const marker = fence[3]!;
  const body: string[] = [];
  for (let i = start + 1; i < lines.length; i += 1) {
    const raw = lines[i]!;
    const trimmed = raw.trim();
    if (trimmed[0] === marker[0] && /^(`{3,}|~{3,})$/.test(trimmed) && trimmed.length >= marker.length) {
      return { found: { indent, item: { title: '', target: '', computed: body.join('\n'), line, items: [] } }, last: i };
    }
    const lead = raw.length - raw.trimStart().length;
    body.push(raw.trim() === '' ? '' : raw.slice(Math.min(lead, content)));
  }
  return 'a fenced block in SUMMARY.md is not closed';
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

const escapeTitle = (title: string) => title.replace(/[\\`[\]]/g, (c) => `\\${c}`);
const writeTarget = (target: string) => (/[\s()<>]/.test(target) ? `<${target}>` : target);

function renderItems(items: readonly SummaryItem[], depth: number, out: string[]) {
  const indent = '  '.repeat(depth);
  for (const item of items) {
    if (item.computed !== undefined) {
      const inner = `${indent}  `;
      const body = item.computed
        .split('\n')
        .map((l) => (l === '' ? '' : `${inner}${l}`))
        .join('\n');
      out.push(`${indent}* \`\`\`yaml\n${body}\n${inner}\`\`\`\n`);
    } else {
      const linkTitle = item.linkTitle === undefined ? '' : ` "${item.linkTitle.replace(/["\\]/g, (c) => `\\${c}`)}"`;
      out.push(`${indent}* [${escapeTitle(item.title)}](${writeTarget(item.target)}${linkTitle})\n`);
    }
    renderItems(item.items, depth + 1, out);
  }
}

/**
 * SUMMARY.md for a summary: `*` bullets, two spaces per level, one blank line between blocks,
 * and `***` before top-level items that follow a group (else they would be read into it).
 */
export function renderSummary(summary: Summary): string {
  const blocks: string[] = [];
  if (summary.title !== undefined) blocks.push(`# ${summary.title}\n`);
  let afterGroup = false;
  for (const part of summary.parts) {
    const lines: string[] = [];
    renderItems(part.items, 0, lines);
    if (part.type === 'items') {
      if (lines.length === 0) continue;
      if (afterGroup) blocks.push('***\n');
      blocks.push(lines.join(''));
      afterGroup = false;
    } else {
      const anchor = part.anchor === undefined ? '' : `<a href="#${part.anchor}" id="${part.anchor}"></a>`;
      blocks.push(lines.length > 0 ? `## ${anchor}${part.title}\n\n${lines.join('')}` : `## ${anchor}${part.title}\n`);
      afterGroup = true;
    }
  }
  return blocks.join('\n');
}
