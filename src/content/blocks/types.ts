import type { Data, Parent, RootContent } from 'mdast';

/**
 * A GitBook block of a page: the content between `{% name ... %}` and `{% endname %}` (or a
 * single tag such as `{% include %}`), folded into one mdast node. Children are the markdown
 * inside; an `if` holds one `if-branch` block per `{% if %}` / `{% elif %}` / `{% else %}`.
 */
export interface GitbookBlock extends Parent {
  type: 'gitbookBlock';
  /** The tag's name: `hint`, `tabs`, `tab`, ..., `if-branch`, or any unknown name as written. */
  name: string;
  attrs: Record<string, string | true>;
  /** What the tag holds after its name, as written: an include's path, an if's condition. */
  args: string;
  /** False for a tag GitBook does not define (rendered as a warning, left out when published). */
  known: boolean;
  children: RootContent[];
  /** What renderers learn about the block: the file an include came from, a resolved target, an OpenAPI block filled in. */
  data?: Data & { file?: string; href?: string; label?: string; broken?: boolean; openapi?: boolean };
}

/** A problem in a page's block syntax, at a 1-based line of the markdown given. */
export interface BlockProblem {
  line: number;
  message: string;
}

declare module 'mdast' {
  interface RootContentMap {
    gitbookBlock: GitbookBlock;
  }
  interface BlockContentMap {
    gitbookBlock: GitbookBlock;
  }
}
