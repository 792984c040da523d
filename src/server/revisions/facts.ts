import type { Kysely } from 'kysely';
import type { DocumentFacts } from '../../content/index.js';
import type { Database } from '../store/schema.js';
import { getBlobs, sha256 } from '../store/blobs.js';
import { getFacts, putFacts } from '../store/document-facts.js';
import { runParse } from '../parse/pool.js';

const EMPTY: DocumentFacts = {
  links: [],
  text: { sections: [] },
  textBlocks: [],
  blockNodes: [],
  document: { object: 'document', data: {}, nodes: [] },
};

/**
 * The facts of stored documents, by sha. Documents are given their facts when written; one
 * written before facts were kept has them derived here (on a worker, within the parse budget)
 * and stored, once. Reads never parse on the event loop.
 */
export async function loadFacts(db: Kysely<Database>, shas: Iterable<string>): Promise<Map<string, DocumentFacts>> {
  const wanted = [...new Set(shas)];
  if (wanted.length === 0) return new Map();
  const found = await getFacts(db, wanted);
  const missing = wanted.filter((sha) => !found.has(sha));
  if (missing.length === 0) return found;
  const texts = await getBlobs(db, missing);
  const known = missing.filter((sha) => texts.has(sha));
  const derived = await runParse({ kind: 'facts', texts: known.map((sha) => texts.get(sha)!.toString('utf8')) }, 'a stored document');
  const fresh: [string, DocumentFacts][] = known.map((sha, i) => {
    const facts = derived.facts[i]!;
    return [sha, 'ok' in facts ? EMPTY : facts];
  });
  await putFacts(db, fresh);
  for (const [sha, facts] of fresh) found.set(sha, facts);
  return found;
}

/**
 * The facts of texts that are not stored as blobs (comment bodies), keyed by the text: found by
 * their sha256, else derived on a worker and stored for the next read.
 */
export async function loadTextFacts(db: Kysely<Database>, texts: readonly string[]): Promise<Map<string, DocumentFacts>> {
  const unique = [...new Set(texts)];
  const byText = new Map<string, DocumentFacts>();
  if (unique.length === 0) return byText;
  const shas = unique.map((text) => sha256(text));
  const found = await getFacts(db, shas);
  const missing = unique.filter((_, i) => !found.has(shas[i]!));
  if (missing.length > 0) {
    const derived = await runParse({ kind: 'facts', texts: missing }, 'a comment');
    const fresh: [string, DocumentFacts][] = missing.map((text, i) => {
      const facts = derived.facts[i]!;
      return [sha256(text), 'ok' in facts ? EMPTY : facts];
    });
    await putFacts(db, fresh);
    for (const [sha, facts] of fresh) found.set(sha, facts);
  }
  unique.forEach((text, i) => byText.set(text, found.get(shas[i]!)!));
  return byText;
}
