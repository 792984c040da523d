import { decodePath } from './paths.js';

// Asset references as GitBook writes them: quoted HTML attributes (`src="../.gitbook/assets/a (1).png"`),
// `](<path with spaces>)` and plain `](path)` markdown links and images.
const REFERENCE =
  /(["'])([^"'\n]*?\.gitbook\/assets\/[^"'\n]*)\1|\]\(<([^>\n]*?\.gitbook\/assets\/[^>\n]*)>|\]\(([^)\s<]*?\.gitbook\/assets\/[^)\s]*)/g;

/** Asset names a markdown text refers to, with their 1-based line (a textual scan). */
export function assetReferences(markdown: string): { name: string; line: number }[] {
  const found: { name: string; line: number }[] = [];
  for (const match of markdown.matchAll(REFERENCE)) {
    const target = match[2] ?? match[3] ?? match[4]!;
    const name = target.slice(target.indexOf('.gitbook/assets/') + '.gitbook/assets/'.length).split(/[#?]/)[0]!;
    const line = markdown.slice(0, match.index).split('\n').length;
    found.push({ name: decodePath(name), line });
  }
  return found;
}
