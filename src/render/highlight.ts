import { createRequire } from 'node:module';
import type { Root } from 'hast';
import type { VFile } from 'vfile';

export interface HighlightOptions {
  /** Guess the language of code that names none. @default false */
  detect?: boolean;
  /** Languages left as plain text. */
  plainText?: readonly string[];
}

type RehypeHighlight = (options?: Readonly<HighlightOptions>) => (tree: Root, file: VFile) => undefined;

// rehype-highlight (highlight.js through lowlight) is loaded through `require` (Node loads an ES
// module synchronously that way) so that TypeScript does not read its types: highlight.js's types
// reference the DOM library (`/// <reference lib="dom" />`), which would make the whole program
// type-check against browser globals. Synchronous, not a top-level `await import()`: a module
// graph with a top-level await cannot be required, and tsx loads TypeScript on worker threads
// (the server's piscina pool) through require. The package is in `dependencies`; this is the
// part of its API we call.
const loaded = createRequire(import.meta.url)('rehype-highlight') as { default: RehypeHighlight };

/** rehype-highlight: code blocks with a `language-*` class highlighted by highlight.js's common languages. */
export const rehypeHighlight = loaded.default;
