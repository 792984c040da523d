import type { Kysely } from 'kysely';
import { extractLinks, listLinks, pageSections, walkPages, type LinkEntry } from '../../content/index.js';
import type { Database } from '../store/schema.js';
import { getBlobs } from '../store/blobs.js';
import type { ContentScope } from './read-content.js';

interface ParsedDocument {
  urls: string[];
  anchors: Set<string>;
}

// Parsing is the cost of a link listing; a document is immutable per sha, so it is parsed once.
const CACHE_SIZE = 5_000;
const parsed = new Map<string, ParsedDocument>();

function parse(sha: string, markdown: string): ParsedDocument {
  let doc = parsed.get(sha);
  if (!doc) {
    doc = {
      urls: extractLinks(markdown).map((l) => l.url),
      anchors: new Set(pageSections(markdown).sections.map((s) => s.anchor).filter((a) => a !== '')),
    };
    parsed.set(sha, doc);
    if (parsed.size > CACHE_SIZE) parsed.delete(parsed.keys().next().value as string);
  }
  return doc;
}

/**
 * Every link of the scope's revision, resolved and grouped by target. A URL under this
 * server's app (`<base>/app/`) is `in-app`.
 */
export async function readLinks(db: Kysely<Database>, scope: ContentScope, appPrefix: string): Promise<LinkEntry[]> {
  // Cached documents are taken into a local map first: parsing new ones may evict them.
  const local = new Map<string, ParsedDocument>();
  const missing = new Set<string>();
  const documentOf = new Map<string, string>();
  for (const page of walkPages(scope.tree.pages)) {
    if (page.document === undefined) continue;
    documentOf.set(page.id, page.document);
    const cached = parsed.get(page.document);
    if (cached) local.set(page.document, cached);
    else missing.add(page.document);
  }
  for (const [sha, bytes] of await getBlobs(db, missing)) local.set(sha, parse(sha, bytes.toString('utf8')));
  const byPage = (id: string) => {
    const sha = documentOf.get(id);
    return sha === undefined ? undefined : local.get(sha);
  };
  return listLinks(scope.tree, {
    links: (id) => byPage(id)?.urls,
    anchors: (id) => byPage(id)?.anchors,
    appPrefixes: [appPrefix],
  });
}
