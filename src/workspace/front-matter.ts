import matter from 'gray-matter';
import { dumpYaml, isMapping, loadYaml } from './yaml.js';

export interface FrontMatterBlock {
  /** The YAML mapping; empty without a block. */
  data: Record<string, unknown>;
  /** The text after the closing `---` line (all of it without a block). */
  body: string;
  /** 1-based file line of each top-level key, for messages. */
  lines: Map<string, number>;
}

export type FrontMatterSplit = { ok: true; value: FrontMatterBlock } | { ok: false; line: number; message: string };

// gray-matter finds the block; js-yaml (core schema) parses it so errors keep their line.
const noParse = { yaml: { parse: () => ({}), stringify: () => '' } };

/**
 * Splits a markdown file into its YAML front matter and body. A block that is not valid YAML,
 * or not a mapping, is an error with the file line it was found at.
 */
export function splitFrontMatter(text: string): FrontMatterSplit {
  if (!/^---[ \t]*\r?\n/.test(text)) return { ok: true, value: { data: {}, body: text, lines: new Map() } };
  const file = matter(text, { engines: noParse });
  if (file.content === text) return { ok: true, value: { data: {}, body: text, lines: new Map() } };
  // `file.matter` starts after the opening `---`, so its line n is file line n + 1.
  const parsed = loadYaml(file.matter);
  if (!parsed.ok) return { ok: false, line: (parsed.line ?? 0) + 1, message: `front matter is not valid YAML: ${parsed.reason}` };
  const data = parsed.value ?? {};
  if (!isMapping(data)) return { ok: false, line: 2, message: 'front matter must be a YAML mapping (`key: value` lines)' };
  const lines = new Map<string, number>();
  file.matter.split('\n').forEach((line, index) => {
    const key = /^(?:"([^"]+)"|'([^']+)'|([^\s:#][^:]*?))\s*:/.exec(line);
    const name = key?.[1] ?? key?.[2] ?? key?.[3];
    if (name !== undefined && !lines.has(name)) lines.set(name, index + 1);
  });
  return { ok: true, value: { data, body: file.content, lines } };
}

/** `---\n<yaml>---\n`, or '' for no keys: the inverse of `splitFrontMatter`. */
export function renderFrontMatter(data: Record<string, unknown>): string {
  if (Object.keys(data).length === 0) return '';
  return `---\n${dumpYaml(data)}---\n`;
}
