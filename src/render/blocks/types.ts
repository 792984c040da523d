import type { ElementContent } from 'hast';
import type { GitbookBlock } from '../../content/index.js';
import type { RenderContext } from '../context.js';

export interface BlockArgs {
  node: GitbookBlock;
  /** The block's children rendered (markdown inside it, nested blocks). */
  children: () => ElementContent[];
  /** Renders any child block (tabs render their tabs one by one). */
  render: (node: GitbookBlock) => ElementContent[];
  ctx: RenderContext;
}

/** One GitBook block to hast. An empty list leaves the block out. */
export type BlockRenderer = (args: BlockArgs) => ElementContent[];

export const attr = (node: GitbookBlock, name: string): string | undefined => {
  const value = node.attrs[name];
  return typeof value === 'string' ? value : undefined;
};

export const flag = (node: GitbookBlock, name: string): boolean => node.attrs[name] === true || node.attrs[name] === 'true';

export const childBlocks = (node: GitbookBlock, name: string): GitbookBlock[] =>
  node.children.filter((child): child is GitbookBlock => child.type === 'gitbookBlock' && child.name === name);
