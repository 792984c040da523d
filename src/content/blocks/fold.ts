import type { Parent, RootContent } from 'mdast';
import { isBranch, isKnownTag, isOptionallyWrapping, isWrapping } from './syntax.js';
import type { Tag } from './tag.js';
import type { BlockProblem, GitbookBlock } from './types.js';

/** The tag a node stands for when it is a paragraph holding nothing but one tag. */
export type TagOf = (node: RootContent) => Tag | undefined;

interface Open {
  block: GitbookBlock;
  /** Where the content goes: the block, or for an `if` its current branch. */
  sink: RootContent[];
  line: number;
}

const lineOf = (node: RootContent) => node.position?.start.line ?? 1;

function blockOf(tag: Tag, name = tag.name): GitbookBlock {
  return {
    type: 'gitbookBlock',
    name,
    attrs: tag.attrs,
    args: tag.args,
    known: isKnownTag(tag.name) || name === 'if-branch',
    children: [],
  };
}

/**
 * Folds the tag paragraphs among `parent`'s children (and, recursively, in its containers) into
 * GitbookBlock nodes. Never throws: an end tag with nothing to close, or a block never closed,
 * is a problem; the unclosed block keeps what follows it up to its parent's end.
 */
export function foldBlocks(parent: Parent, tagOf: TagOf, problems: BlockProblem[]): void {
  const out: RootContent[] = [];
  const stack: Open[] = [];
  const sink = () => (stack.length > 0 ? stack[stack.length - 1]!.sink : out);
  const children = parent.children as RootContent[];
  const closes = (from: number, name: string) => {
    for (let i = from; i < children.length; i += 1) {
      const tag = tagOf(children[i]!);
      if (tag?.name === name) return tag.closing;
    }
    return false;
  };
  children.forEach((node, index) => {
    const tag = tagOf(node);
    if (tag === undefined) {
      if ('children' in node && node.type !== 'paragraph' && node.type !== 'heading') foldBlocks(node as Parent, tagOf, problems);
      sink().push(node);
      return;
    }
    const line = lineOf(node);
    if (tag.closing) {
      const at = stack.findLastIndex((open) => open.block.name === tag.name);
      if (at < 0) {
        problems.push({ line, message: `\`{% end${tag.name} %}\` closes no \`{% ${tag.name} %}\`` });
        return;
      }
      for (const unclosed of stack.splice(at).slice(1))
        problems.push({ line: unclosed.line, message: `\`{% ${unclosed.block.name} %}\` is not closed before \`{% end${tag.name} %}\`` });
      return;
    }
    if (isBranch(tag.name)) {
      const open = stack[stack.length - 1];
      if (open?.block.name !== 'if') {
        problems.push({ line, message: `\`{% ${tag.name} %}\` is outside an \`{% if %}\`` });
        return;
      }
      const branch = blockOf(tag, 'if-branch');
      if (tag.name === 'else') branch.args = '';
      open.block.children.push(branch);
      open.sink = branch.children;
      return;
    }
    const block = blockOf(tag);
    block.position = node.position;
    sink().push(block);
    const unknownWithEnd = !block.known && closes(index + 1, tag.name);
    if (isWrapping(tag.name) || unknownWithEnd || (isOptionallyWrapping(tag.name) && closes(index + 1, tag.name))) {
      const open: Open = { block, sink: block.children, line };
      if (tag.name === 'if') {
        const branch = blockOf(tag, 'if-branch');
        block.children.push(branch);
        open.sink = branch.children;
      }
      stack.push(open);
    }
  });
  for (const open of stack)
    problems.push({ line: open.line, message: `\`{% ${open.block.name} %}\` is never closed (\`{% end${open.block.name} %}\`)` });
  parent.children = out;
}
