import type { ContentTree } from '../../model/index.js';
import { pagePaths, walkPages, type PageText } from '../../content/index.js';
import { sha256 } from '../store/blobs.js';
import { placedGenerated, type GeneratedReference } from '../openapi/reference.js';

/** What a page's index rows are built from; equal digests mean equal rows. */
export interface IndexablePage {
  pageId: string;
  title: string;
  path: string;
  description: string;
  /** sha256 of the markdown; undefined for an empty page. */
  document: string | undefined;
  /** The markdown of a page an OpenAPI reference generates (none is stored). */
  markdown?: string;
  digest: string;
}

export interface SectionRow {
  page_id: string;
  position: number;
  anchor: string;
  title: string;
  body: string;
  page_title: string;
  page_path: string;
}

/**
 * Document pages are indexed, and the pages OpenAPI computed pages generate (`generated`, at the
 * paths content reads give them); groups and links have no text of their own to find.
 */
export function indexablePages(tree: ContentTree, generated?: ReadonlyMap<string, GeneratedReference>): Map<string, IndexablePage> {
  const paths = pagePaths(tree.pages);
  const result = new Map<string, IndexablePage>();
  for (const page of walkPages(tree.pages)) {
    if (page.type !== 'document') continue;
    const path = paths.get(page.id)?.path ?? page.slug;
    const description = page.description ?? '';
    const digest = sha256(JSON.stringify([page.title, path, description, page.document ?? '']));
    result.set(page.id, { pageId: page.id, title: page.title, path, description, document: page.document, digest });
  }
  if (generated === undefined) return result;
  for (const { page, path } of placedGenerated(generated, (id) => paths.get(id)?.path ?? '')) {
    if (result.has(page.id)) continue;
    const digest = sha256(JSON.stringify([page.title, path, '', '', page.markdown]));
    result.set(page.id, {
      pageId: page.id,
      title: page.title,
      path,
      description: '',
      document: undefined,
      markdown: page.markdown,
      digest,
    });
  }
  return result;
}

/**
 * A page's rows: position 0 is the page itself (its description and the text before the first
 * heading, anchor ''), so a page is found by its title even when it has no text; then one row
 * per heading. The page title and path are repeated on every row so that a query whose words
 * are split between the title and a section still matches that section.
 */
export function sectionRows(page: IndexablePage, text: PageText): SectionRow[] {
  const sections = [...text.sections];
  const intro = sections[0]?.anchor === '' ? (sections.shift()?.body ?? '') : '';
  const base = { page_id: page.pageId, page_title: page.title, page_path: page.path };
  const rows: SectionRow[] = [
    { ...base, position: 0, anchor: '', title: page.title, body: [page.description, intro].filter((t) => t !== '').join('\n') },
  ];
  sections.forEach((section, i) =>
    rows.push({ ...base, position: i + 1, anchor: section.anchor, title: section.title, body: section.body }),
  );
  return rows;
}
