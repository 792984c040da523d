import { readFrontMatter, writeFrontMatter, type FrontMatter } from '../content/index.js';

export type FrontMatterBlock = FrontMatter;

export type FrontMatterSplit = { ok: true; value: FrontMatterBlock } | { ok: false; line: number; message: string };

/**
 * Splits a markdown file into its YAML front matter and body, with the reader the server's batch
 * endpoint uses (content/markdown/front-matter.ts). A block that is not valid YAML, or not a
 * mapping, is an error with the file line it was found at.
 */
export const splitFrontMatter = (text: string): FrontMatterSplit => readFrontMatter(text);

/** `---\n<yaml>---\n`, or '' for no keys: the inverse of `splitFrontMatter`. */
export const renderFrontMatter = (data: Record<string, unknown>): string => writeFrontMatter(data);
