import type { ElementContent } from 'hast';
import { isIntegration, type GitbookBlock, type KnownTagName } from '../../content/index.js';
import { embed, contentRef, file, openapi } from './cards.js';
import { code } from './code.js';
import { integration } from './diagram.js';
import { branch, condition } from './condition.js';
import { hint } from './hint.js';
import { column, columns, include, step, stepper } from './layout-blocks.js';
import { tab, tabs } from './tabs.js';
import type { BlockArgs, BlockRenderer } from './types.js';
import { unknown } from './unknown.js';

/** One renderer per tag GitBook defines: a new tag name breaks the build until it has one. */
const BLOCKS: Record<KnownTagName | 'if-branch', BlockRenderer> = {
  hint,
  tabs,
  tab,
  code,
  stepper,
  step,
  columns,
  column,
  'content-ref': contentRef,
  if: condition,
  'if-branch': branch,
  swagger: openapi,
  embed,
  file,
  openapi,
  'openapi-operation': openapi,
  'openapi-schemas': openapi,
  'openapi-webhook': openapi,
  include,
};

export function renderBlock(args: Omit<BlockArgs, 'node'> & { node: GitbookBlock }): ElementContent[] {
  if (args.node.known && isIntegration(args.node.name)) return integration(args);
  const renderer = Object.hasOwn(BLOCKS, args.node.name) && args.node.known ? BLOCKS[args.node.name as keyof typeof BLOCKS] : unknown;
  return renderer(args);
}
