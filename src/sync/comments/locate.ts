import { blockNodes } from '../../content/index.js';

/**
 * The line of a page file where a commented block is now: the block with the comment's node id
 * (its text unchanged), else the first block whose text starts like the comment's preview (the
 * block was reworded a little after the preview, or its id shifted because an identical block was
 * added before it), else the page's first line (the block is gone). Pure: the file's text in,
 * a 1-based line out.
 */
export function locateNode(fileText: string, node: { id: string; preview: string } | undefined): number {
  if (node === undefined) return 1;
  const blocks = blockNodes(fileText);
  const byId = blocks.find((b) => b.id === node.id);
  if (byId) return byId.line;
  const preview = node.preview.endsWith('…') ? node.preview.slice(0, -1) : node.preview;
  if (preview !== '') {
    const byText = blocks.find((b) => b.text === node.preview) ?? blocks.find((b) => b.text.startsWith(preview));
    if (byText) return byText.line;
  }
  return 1;
}

/** The block a comment posted at `line` of a page file targets: the last block starting at or before it. */
export function blockAtLine(fileText: string, line: number): { id: string; text: string; line: number } | undefined {
  let found: { id: string; text: string; line: number } | undefined;
  for (const block of blockNodes(fileText)) {
    if (block.line > line) break;
    found = block;
  }
  return found;
}
