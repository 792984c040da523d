import type { Kysely } from 'kysely';
import { pagePaths, referencePages, walkPages, type GeneratedPage, type OpenApiFiles } from '../../content/index.js';
import type { ContentTree, TreePage } from '../../model/index.js';
import type { Database } from '../store/schema.js';
import { findSpec, findSpecBySourceUrl, findVersion } from '../store/openapi-specs.js';
import { Lru } from '../web/lru.js';

/** A version's files, parsed once: versions never change, so they are kept by id. */
const versions = new Lru<string, OpenApiFiles>(32);

/** The latest processed version of an organization's spec, or undefined while it has none. */
export async function loadSpecFiles(db: Kysely<Database>, orgId: string, slug: string): Promise<OpenApiFiles | undefined> {
  // A slug, or (older `{% openapi src %}` blocks) the URL a spec is fetched from.
  const spec = (await findSpec(db, orgId, slug)) ?? (URL.canParse(slug) ? await findSpecBySourceUrl(db, orgId, slug) : undefined);
  if (!spec || spec.last_version === null) return undefined;
  const cached = versions.get(spec.last_version);
  if (cached) return cached;
  const row = await findVersion(db, spec.id, spec.last_version);
  if (!row) return undefined;
  const files: OpenApiFiles = { entry: row.entry, files: JSON.parse(row.filesystem) as Record<string, unknown> };
  versions.set(row.id, files);
  return files;
}

/**
 * The organization's specs as `slug@version`: part of a cache key of what is made from them
 * (rendered pages, a site's generated pages), so a new version of a spec makes them anew.
 */
export async function specVersions(db: Kysely<Database>, orgId: string): Promise<string> {
  const rows = await db.selectFrom('openapi_specs').select(['slug', 'last_version']).where('org_id', '=', orgId).orderBy('slug').execute();
  return rows.map((r) => `${r.slug}@${r.last_version ?? ''}`).join(',');
}

/** What a `builtin:openapi` computed page asks for; undefined for other sources. */
export function openApiSource(page: TreePage): { spec: string; grouping?: 'by-tag' | 'by-operation'; models: boolean } | undefined {
  if (page.type !== 'computed' || page.computed === undefined) return undefined;
  try {
    const source = JSON.parse(page.computed) as {
      type?: unknown;
      props?: { models?: unknown; grouping?: unknown };
      dependencies?: { spec?: { ref?: { kind?: unknown; spec?: unknown } } };
    };
    const ref = source.dependencies?.spec?.ref;
    if (source.type !== 'builtin:openapi' || ref?.kind !== 'openapi' || typeof ref.spec !== 'string') return undefined;
    const grouping = source.props?.grouping;
    return {
      spec: ref.spec,
      models: source.props?.models === true,
      ...(grouping === 'by-tag' || grouping === 'by-operation' ? { grouping } : {}),
    };
  } catch {
    return undefined;
  }
}

/**
 * The pages of one computed page over one version, made once: every content read of the space
 * asks for them, and a version's files never change (the key is the files object the version
 * cache holds, so they go when it forgets the version).
 */
const generated = new WeakMap<OpenApiFiles, Map<string, GeneratedPage[]>>();
function generatedOnce(files: OpenApiFiles, options: Parameters<typeof referencePages>[1]): GeneratedPage[] {
  const key = JSON.stringify(options);
  const byOptions = generated.get(files) ?? new Map<string, GeneratedPage[]>();
  generated.set(files, byOptions);
  let pages = byOptions.get(key);
  if (pages === undefined) byOptions.set(key, (pages = referencePages(files, options)));
  return pages;
}

/** The pages an OpenAPI reference generated, and the spec it named. */
export interface GeneratedReference {
  spec: string;
  pages: GeneratedPage[];
}

/**
 * The pages every OpenAPI computed page of the tree generates, by computed page id: made on
 * each read from the latest processed version of the spec it names (in the space's
 * organization), so a new version shows on the next read. A spec that is unknown or not
 * processed yet generates none.
 */
export async function generateReferences(db: Kysely<Database>, orgId: string, tree: ContentTree): Promise<Map<string, GeneratedReference>> {
  const out = new Map<string, GeneratedReference>();
  const paths = pagePaths(tree.pages);
  let stored: string[] | undefined;
  for (const page of walkPages(tree.pages)) {
    const source = openApiSource(page);
    if (!source) continue;
    const files = await loadSpecFiles(db, orgId, source.spec);
    if (!files) continue;
    stored ??= [...paths.values()].map((p) => p.path);
    const options = {
      pageId: page.id,
      specSlug: source.spec,
      models: source.models,
      ...(source.grouping ? { grouping: source.grouping } : {}),
      reserved: reservedSlugs(stored, paths.get(page.id)?.path ?? ''),
    };
    out.set(page.id, { spec: source.spec, pages: generatedOnce(files, options) });
  }
  return out;
}

/**
 * The slugs stored pages take at `base` (where a computed page's generated pages go), sorted: a
 * stored page keeps its path and the generated one beside it is given a suffix (`-2`), the same
 * on every read of the same tree.
 */
function reservedSlugs(storedPaths: readonly string[], base: string): string[] {
  const prefix = base === '' ? '' : `${base}/`;
  const slugs = new Set<string>();
  for (const path of storedPaths) {
    if (!path.startsWith(prefix)) continue;
    const rest = path.slice(prefix.length);
    if (rest !== '' && !rest.includes('/')) slugs.add(rest);
  }
  return [...slugs].sort();
}

/** A generated page with where it sits: the spec it came from and its parent's path. */
export interface PlacedGenerated {
  page: GeneratedPage;
  spec: string;
  base: string;
  path: string;
}

/** Every generated page of `refs`, placed under its computed page's path (`pathOf`). */
export function* placedGenerated(
  refs: ReadonlyMap<string, GeneratedReference>,
  pathOf: (pageId: string) => string,
): Generator<PlacedGenerated> {
  for (const [pageId, ref] of refs) {
    const stack = ref.pages.map((page) => ({ page, base: pathOf(pageId) })).reverse();
    while (stack.length > 0) {
      const { page, base } = stack.pop()!;
      const path = base === '' ? page.slug : `${base}/${page.slug}`;
      yield { page, spec: ref.spec, base, path };
      for (const child of [...page.pages].reverse()) stack.push({ page: child, base: path });
    }
  }
}
