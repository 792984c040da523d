import type { Root } from 'hast';
import type { VFile } from 'vfile';

export interface HighlightOptions {
  /** Guess the language of code that names none. @default false */
  detect?: boolean;
  /** Languages left as plain text. */
  plainText?: readonly string[];
}

// rehype-highlight (highlight.js through lowlight) is loaded by a computed specifier so that
// TypeScript does not read its types: highlight.js's types reference the DOM library
// (`/// <reference lib="dom" />`), which would make the whole program type-check against
// browser globals. The package is in `dependencies`; this is the part of its API we call.
const specifier: string = 'rehype-highlight';
const loaded = (await import(specifier)) as { default: (options?: Readonly<HighlightOptions>) => (tree: Root, file: VFile) => undefined };

/** rehype-highlight: code blocks with a `language-*` class highlighted by highlight.js's common languages. */
export const rehypeHighlight = loaded.default;
