import type { Kysely } from 'kysely';
import { indexPages, type DocumentFacts, type DocumentStore } from '../../content/index.js';
import type { ContentTree } from '../../model/index.js';
import type { Database } from '../store/schema.js';
import { getBlobs, putBlob, sha256 } from '../store/blobs.js';
import { putFacts } from '../store/document-facts.js';
import { runParse } from '../parse/pool.js';

/**
 * The DocumentStore a tree merge reads and writes through. `mergeTrees` is synchronous, so every
 * document it may read is fetched before it runs: the base, ours and theirs markdown of each
 * page (and reusable content) whose document both sides changed (differently) from the base, which
 * is exactly when the merge falls back to a line merge. Texts it writes are kept in memory and stored by `flush`,
 * only once the merge turned out clean, so a conflict writes nothing.
 */
export interface MergeDocuments {
  store: DocumentStore;
  /** Derives the facts of the texts the merge wrote, on a worker (call it outside any transaction). */
  deriveFacts(): Promise<void>;
  /** Stores the texts the merge wrote, with their facts when derived. */
  flush(db: Kysely<Database>): Promise<void>;
}

export async function prepareDocuments(
  db: Kysely<Database>,
  base: ContentTree,
  ours: ContentTree,
  theirs: ContentTree,
): Promise<MergeDocuments> {
  const B = indexPages(base.pages);
  const O = indexPages(ours.pages);
  const T = indexPages(theirs.pages);
  const wanted = new Set<string>();
  for (const [id, o] of O) {
    const t = T.get(id);
    if (!t) continue;
    const b = B.get(id)?.page.document;
    const mine = o.page.document;
    const other = t.page.document;
    if (mine === other || mine === b || other === b) continue;
    for (const sha of [b, mine, other]) if (sha !== undefined) wanted.add(sha);
  }
  // Reusable contents' bodies merge by the same rule.
  const baseContents = new Map(base.reusableContents.map((c) => [c.id, c.document]));
  const theirContents = new Map(theirs.reusableContents.map((c) => [c.id, c]));
  for (const content of ours.reusableContents) {
    const t = theirContents.get(content.id);
    if (!t) continue;
    const b = baseContents.get(content.id);
    if (content.document === t.document || content.document === b || t.document === b) continue;
    for (const sha of [b, content.document, t.document]) if (sha !== undefined) wanted.add(sha);
  }
  const texts = new Map<string, string>();
  for (const [sha, bytes] of await getBlobs(db, wanted)) texts.set(sha, bytes.toString('utf8'));
  const written = new Map<string, string>();
  const facts: [string, DocumentFacts][] = [];
  return {
    store: {
      read(sha) {
        const text = texts.get(sha) ?? written.get(sha);
        // Reaching this means the prefetch rule above and mergeTrees disagree, or a blob is lost.
        if (text === undefined) throw new Error(`document ${sha} was not prefetched for the merge`);
        return text;
      },
      write(text) {
        const sha = sha256(Buffer.from(text, 'utf8'));
        written.set(sha, text);
        return sha;
      },
    },
    async deriveFacts() {
      if (written.size === 0) return;
      const shas = [...written.keys()];
      const derived = await runParse({ kind: 'facts', texts: [...written.values()] }, 'the merged documents');
      derived.facts.forEach((value, i) => {
        if (!('ok' in value)) facts.push([shas[i]!, value]);
      });
    },
    async flush(target) {
      for (const text of written.values()) await putBlob(target, text);
      await putFacts(target, facts);
    },
  };
}
