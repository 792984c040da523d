import type { Kysely } from 'kysely';
import {
  extractLinks, listLinks, pageSections, parseableTemplate, splitTemplate, walkPages, type DocumentLink, type LinkEntry,
} from '../../content/index.js';
import type { Database } from '../store/schema.js';
import { getBlobs } from '../store/blobs.js';
import type { ContentScope } from './read-content.js';

interface ParsedDocument {
  links: DocumentLink[];
  anchors: Set<string>;
}

// Parsing is the cost of a link listing; a document is immutable per sha, so it is parsed once.
const CACHE_SIZE = 5_000;
const parsed = new Map<string, ParsedDocument>();

function parse(sha: string, markdown: string): ParsedDocument {
  let doc = parsed.get(sha);
  if (!doc) {
    // References are ids: what a document links to does not depend on where its targets are now.
    const { text, refOf } = parseableTemplate(splitTemplate(markdown));
    doc = {
      links: extractLinks(text).map((l) => refOf(l.url) ?? l.url),
      anchors: new Set(pageSections(text).sections.map((s) => s.anchor).filter((a) => a !== '')),
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
    links: (id) => byPage(id)?.links,
    anchors: (id) => byPage(id)?.anchors,
    appPrefixes: [appPrefix],
  });
}
