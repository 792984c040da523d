/**
 * How deep submitted documents may nest. The markdown parser and every tree walk after it
 * recurse per level, and some nestings (brackets) cost quadratic time, so a small hostile
 * document could exhaust the stack or the CPU; real pages nest a handful of levels.
 */
export const MAX_NESTING = 64;
export const MAX_INDENT = 4 * MAX_NESTING;

// Container openers at the start of a line: block quotes and list items.
const CONTAINER = /^[ \t]*(?:>|[-*+](?=[ \t]|$)|[0-9]{1,9}[.)](?=[ \t]|$))[ \t]?/;

/** Why a markdown document nests too deeply to be stored, or undefined. */
export function markdownNestingProblem(markdown: string): string | undefined {
  for (const line of markdown.split('\n')) {
    // Indentation nests lists too, and the parser's cost grows steeply with it.
    const indent = /^[ \t]*/.exec(line)![0].replace(/\t/g, '    ').length;
    if (indent > MAX_INDENT) return `markdown indents a line more than ${MAX_INDENT} columns`;
    let rest = line;
    let depth = 0;
    for (let match = CONTAINER.exec(rest); match && match[0] !== ''; match = CONTAINER.exec(rest)) {
      rest = rest.slice(match[0].length);
      if ((depth += 1) > MAX_NESTING) return `markdown nests block quotes or lists more than ${MAX_NESTING} deep`;
    }
  }
  // Brackets nest only within a paragraph, and not at all in fenced code (a JSON example opens
  // many `[` that no `]` closes on a real page).
  let brackets = 0;
  let fence: string | undefined;
  for (const line of markdown.split('\n')) {
    const opener = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence !== undefined) {
      if (opener !== undefined && opener[0] === fence[0] && opener.length >= fence.length && line.trim() === opener) fence = undefined;
      continue;
    }
    if (opener !== undefined) {
      fence = opener;
      brackets = 0;
      continue;
    }
    if (line.trim() === '') brackets = 0;
    for (let i = 0; i < line.length; i += 1) {
      const c = line[i];
      if (c === '\\') i += 1;
      else if (c === '[' && (brackets += 1) > MAX_NESTING) return `markdown nests brackets more than ${MAX_NESTING} deep`;
      else if (c === ']' && brackets > 0) brackets -= 1;
    }
  }
  return undefined;
}

/** Depth of a JSON value, measured without recursion. */
export function jsonDepth(value: unknown): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 1]];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const [node, depth] = item;
    if (typeof node !== 'object' || node === null) continue;
    deepest = Math.max(deepest, depth);
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return deepest;
}
