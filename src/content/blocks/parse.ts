import type { Root, RootContent } from 'mdast';
import remarkFrontmatter from 'remark-frontmatter';
import remarkGfm from 'remark-gfm';
import remarkMath from 'remark-math';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { visit } from 'unist-util-visit';
import { foldBlocks } from './fold.js';
import { separateTags } from './separate-tags.js';
import { parseTag, type Tag } from './tag.js';
import type { BlockProblem } from './types.js';

/**
 * GitBook's markdown: CommonMark + GFM, YAML front matter, and math as GitBook writes it
 * (`$$x$$` inline, `$$` lines around a block; a lone `$` is a dollar sign). Built once, frozen.
 */
const parser = unified()
  .use(remarkParse)
  .use(remarkGfm)
  .use(remarkFrontmatter, ['yaml'])
  .use(remarkMath, { singleDollarTextMath: false })
  .freeze();

export interface GitbookMarkdown {
  /** The page's mdast with its GitBook blocks folded into `gitbookBlock` nodes; positions are lines of the markdown given. */
  root: Root;
  problems: BlockProblem[];
}

/** Parses a page's GitBook-flavoured markdown into mdast with GitbookBlock nodes. Never throws. */
export function parseGitbookMarkdown(markdown: string): GitbookMarkdown {
  const source = separateTags(markdown.replace(/\r\n?/g, '\n'));
  const root = parser.parse(source.text);
  const tags = new Map<RootContent, Tag>();
  visit(root, 'paragraph', (node) => {
    // The paragraph's source text, whatever inline markup remark saw in it (`_` in a URL, autolinks).
    const { start, end } = node.position ?? {};
    const tag =
      start?.offset !== undefined && end?.offset !== undefined ? parseTag(source.text.slice(start.offset, end.offset)) : undefined;
    if (tag !== undefined) tags.set(node, tag);
  });
  const original = (line: number) => source.lines[line - 1] ?? line;
  visit(root, (node) => {
    if (!node.position) return;
    const { start, end } = node.position;
    node.position = { start: { line: original(start.line), column: start.column }, end: { line: original(end.line), column: end.column } };
  });
  const problems: BlockProblem[] = [...source.problems];
  foldBlocks(root, (node) => tags.get(node), problems);
  return { root, problems: problems.sort((a, b) => a.line - b.line) };
}
