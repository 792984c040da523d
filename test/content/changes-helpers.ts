import type { ContentChange, ContentTree, TreePage } from '../../src/model/index.js';
import {
  applyChanges,
  refPaths,
  renderPageMarkdown,
  splitTemplate,
  type ApplyContext,
  type ApplyResult,
  type ApplySuccess,
} from '../../src/content/index.js';

/** Documents are addressed as `d:<text>` in these tests, so a sha shows its text. */
export function context(overrides: Partial<ApplyContext> & { docs?: Map<string, string> } = {}): ApplyContext {
  let n = 0;
  const docs = overrides.docs ?? new Map<string, string>();
  return {
    newId: () => `new${(n += 1)}`,
    now: '2026-01-02T03:04:05.000Z',
    hash: (text) => `d:${text}`,
    readDocument: (sha) => docs.get(sha) ?? (sha.startsWith('d:') ? sha.slice(2) : undefined),
    revisions: new Map(),
    defaultRevision: 'base',
    files: new Map(),
    ...overrides,
  };
}

export const page = (id: string, slug: string, extra: Partial<TreePage> = {}): TreePage => ({
  id,
  type: 'document',
  title: slug.toUpperCase(),
  slug,
  pages: [],
  ...extra,
});

export const tree = (pages: TreePage[], extra: Partial<ContentTree> = {}): ContentTree => ({
  pages,
  files: [],
  variables: {},
  reusableContents: [],
  ...extra,
});

export function apply(t: ContentTree, changes: ContentChange[], ctx: ApplyContext = context()): ApplyResult {
  return applyChanges(t, changes, ctx);
}

export function ok(result: ApplyResult): ApplySuccess {
  if (!result.ok) throw new Error(`expected success, got ${result.message}`);
  return result;
}

/** The markdown of a page in a result as a read renders it (references as paths in the result's tree). */
export function text(result: ApplySuccess, id: string): string | undefined {
  const stored = storedText(result, id);
  return stored === undefined ? undefined : renderPageMarkdown(splitTemplate(stored), id, refPaths(result.tree));
}

/** The stored text of a page in a result: a template whose page and file links are references. */
export function storedText(result: ApplySuccess, id: string): string | undefined {
  const find = (pages: TreePage[]): TreePage | undefined => {
    for (const p of pages) {
      if (p.id === id) return p;
      const inner = find(p.pages);
      if (inner) return inner;
    }
    return undefined;
  };
  const sha = find(result.tree.pages)?.document;
  return sha === undefined ? undefined : (result.documents.get(sha) ?? sha.slice(2));
}
