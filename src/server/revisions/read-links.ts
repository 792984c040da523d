import type { Kysely } from 'kysely';
import {
  dirOf,
  includeNames,
  joinPath,
  listLinks,
  pagePaths,
  walkPages,
  type DocumentFacts,
  type IncludedLinks,
  type LinkEntry,
} from '../../content/index.js';
import type { ContentTree } from '../../model/index.js';
import type { Database } from '../store/schema.js';
import type { ContentScope } from './read-content.js';
import { loadFacts } from './facts.js';

/** The anchors a document's headings give (the text before the first heading has none). */
function anchorsOf(facts: DocumentFacts): Set<string> {
  return new Set(facts.text.sections.map((s) => s.anchor).filter((a) => a !== ''));
}

/** How deep includes are followed, as the renderer does (render/mdast/includes.ts). */
const MAX_INCLUDE_DEPTH = 5;

/**
 * The links of the reusable contents a document embeds, each with its include file, nested ones
 * included (an include of itself is followed once); an include naming no content has none.
 */
function includedLinks(
  tree: ContentTree,
  facts: ReadonlyMap<string, DocumentFacts>,
): (from: string, own: DocumentFacts | undefined) => IncludedLinks[] {
  const names = includeNames(tree.reusableContents);
  const byPath = new Map(tree.reusableContents.map((c, i) => [`.gitbook/includes/${names[i]!}`, c]));
  const walk = (from: string, own: DocumentFacts | undefined, chain: readonly string[], out: IncludedLinks[]) => {
    for (const target of own?.includes ?? []) {
      const path = joinPath(dirOf(from), target);
      const content = path === undefined ? undefined : byPath.get(path);
      if (path === undefined || content === undefined || chain.includes(path) || chain.length >= MAX_INCLUDE_DEPTH) continue;
      const body = content.document === undefined ? undefined : facts.get(content.document);
      out.push({ gitPath: path, links: body?.links ?? [] });
      walk(path, body, [...chain, path], out);
    }
    return out;
  };
  return (from, own) => walk(from, own, [], []);
}

/**
 * Every link of the scope's revision, resolved and grouped by target; a reusable content's links
 * count as links of each page that embeds it. A URL under this server's app (`<base>/app/`) is
 * `in-app`. Links and anchors are the documents' facts, derived when they were written: listing
 * parses nothing.
 */
export async function readLinks(db: Kysely<Database>, scope: ContentScope, appPrefix: string): Promise<LinkEntry[]> {
  const documentOf = new Map<string, string>();
  for (const page of walkPages(scope.tree.pages)) if (page.document !== undefined) documentOf.set(page.id, page.document);
  const contents = scope.tree.reusableContents.flatMap((c) => (c.document === undefined ? [] : [c.document]));
  const facts = await loadFacts(db, [...documentOf.values(), ...contents]);
  const anchors = new Map<string, Set<string>>();
  const byPage = (id: string) => {
    const sha = documentOf.get(id);
    return sha === undefined ? undefined : facts.get(sha);
  };
  const paths = contents.length === 0 ? undefined : pagePaths(scope.tree.pages);
  const included = contents.length === 0 ? undefined : includedLinks(scope.tree, facts);
  return listLinks(scope.tree, {
    links: (id) => byPage(id)?.links,
    ...(included && paths
      ? {
          includes: (id: string) => {
            const own = byPage(id);
            const gitPath = paths.get(id)?.gitPath;
            return own?.includes?.length && gitPath !== undefined ? included(gitPath, own) : [];
          },
        }
      : {}),
    anchors: (id) => {
      const sha = documentOf.get(id);
      if (sha === undefined) return undefined;
      let set = anchors.get(sha);
      if (!set) {
        const found = facts.get(sha);
        if (!found) return undefined;
        anchors.set(sha, (set = anchorsOf(found)));
      }
      return set;
    },
    appPrefixes: [appPrefix],
  });
}
