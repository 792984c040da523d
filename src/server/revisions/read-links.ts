import type { Kysely } from 'kysely';
import { listLinks, walkPages, type DocumentFacts, type LinkEntry } from '../../content/index.js';
import type { Database } from '../store/schema.js';
import type { ContentScope } from './read-content.js';
import { loadFacts } from './facts.js';

/** The anchors a document's headings give (the text before the first heading has none). */
function anchorsOf(facts: DocumentFacts): Set<string> {
  return new Set(facts.text.sections.map((s) => s.anchor).filter((a) => a !== ''));
}

/**
 * Every link of the scope's revision, resolved and grouped by target. A URL under this
 * server's app (`<base>/app/`) is `in-app`. Links and anchors are the documents' facts, derived
 * when they were written: listing parses nothing.
 */
export async function readLinks(db: Kysely<Database>, scope: ContentScope, appPrefix: string): Promise<LinkEntry[]> {
  const documentOf = new Map<string, string>();
  for (const page of walkPages(scope.tree.pages)) if (page.document !== undefined) documentOf.set(page.id, page.document);
  const facts = await loadFacts(db, documentOf.values());
  const anchors = new Map<string, Set<string>>();
  const byPage = (id: string) => {
    const sha = documentOf.get(id);
    return sha === undefined ? undefined : facts.get(sha);
  };
  return listLinks(scope.tree, {
    links: (id) => byPage(id)?.links,
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
