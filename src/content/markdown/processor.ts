import { unified } from 'unified';
import remarkParse from 'remark-parse';
import remarkGfm from 'remark-gfm';
import remarkFrontmatter from 'remark-frontmatter';
import type { Root } from 'mdast';

/** Built once and frozen: CommonMark + GFM, with YAML front matter kept as a node. */
const parser = unified().use(remarkParse).use(remarkGfm).use(remarkFrontmatter, ['yaml']).freeze();

export function parseMarkdown(markdown: string): Root {
  return parser.parse(markdown);
}
