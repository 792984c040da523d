import type { Kysely } from 'kysely';
import { indexPages, lineMergeCost, type DocumentFacts, type DocumentStore, type LineMerge } from '../../content/index.js';
import type { ContentTree } from '../../model/index.js';
import type { Database } from '../store/schema.js';
import { getBlobs, putBlob, sha256 } from '../store/blobs.js';
import { putFacts } from '../store/document-facts.js';
import { runParse } from '../parse/pool.js';

/**
 * Line merges this costly or more (`lineMergeCost`: 1 to 4 ms per million on the development
 * machines under load, so some 5 to 15 ms here) run on a worker before the tree merge, within the
 * parse budget; cheaper ones (a 7 KiB page edited on both sides) run in the tree merge, on the
 * event loop, sparing a worker's round trip. A document over `MAIN_THREAD_MERGE_BYTES` goes to the
 * worker without its lines being counted.
 */
export const MAIN_THREAD_MERGE_COST = 4_000_000;
export const MAIN_THREAD_MERGE_BYTES = 64 * 1024;

type Triple = [base: string | undefined, ours: string | undefined, theirs: string | undefined];
const tripleKey = ([base, ours, theirs]: readonly (string | undefined)[]) => `${base ?? ''}:${ours ?? ''}:${theirs ?? ''}`;

/**
 * The DocumentStore a tree merge reads and writes through. `mergeTrees` is synchronous, so every
 * document it may read is fetched before it runs: the base, ours and theirs markdown of each
 * page (and reusable content) whose document both sides changed (differently) from the base, which
 * is exactly when the merge falls back to a line merge. Texts it writes are kept in memory and stored by `flush`,
 * only once the merge turned out clean, so a conflict writes nothing. diff3 is superlinear, and
 * cubic on repeated lines, so the costly line merges are done first, on a worker (`merged`).
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
  const triples: Triple[] = [];
  for (const [id, o] of O) {
    const t = T.get(id);
    if (!t) continue;
    const b = B.get(id)?.page.document;
    const mine = o.page.document;
    const other = t.page.document;
    if (mine === other || mine === b || other === b) continue;
    triples.push([b, mine, other]);
  }
  // Reusable contents' bodies merge by the same rule.
  const baseContents = new Map(base.reusableContents.map((c) => [c.id, c.document]));
  const theirContents = new Map(theirs.reusableContents.map((c) => [c.id, c]));
  for (const content of ours.reusableContents) {
    const t = theirContents.get(content.id);
    if (!t) continue;
    const b = baseContents.get(content.id);
    if (content.document === t.document || content.document === b || t.document === b) continue;
    triples.push([b, content.document, t.document]);
  }
  // Folder files' texts by the same rule, by path.
  const baseGit = new Map((base.gitFiles ?? []).map((f) => [f.path, f.document]));
  const theirGit = new Map((theirs.gitFiles ?? []).map((f) => [f.path, f.document]));
  for (const file of ours.gitFiles ?? []) {
    const t = theirGit.get(file.path);
    if (t === undefined) continue;
    const b = baseGit.get(file.path);
    if (file.document === t || file.document === b || t === b) continue;
    triples.push([b, file.document, t]);
  }
  const wanted = new Set(triples.flatMap((triple) => triple.filter((sha): sha is string => sha !== undefined)));
  const texts = new Map<string, string>();
  for (const [sha, bytes] of await getBlobs(db, wanted)) texts.set(sha, bytes.toString('utf8'));
  const merged = await mergeCostly(triples, texts);
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
      merged: (base, ours, theirs) => merged.lines.get(tripleKey([base, ours, theirs])),
    },
    async deriveFacts() {
      const unknown = [...written].filter(([sha]) => {
        const known = merged.facts.get(sha);
        if (known) facts.push([sha, known]);
        return !known;
      });
      if (unknown.length === 0) return;
      const shas = unknown.map(([sha]) => sha);
      const derived = await runParse({ kind: 'facts', texts: unknown.map(([, text]) => text) }, 'the merged documents');
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

/**
 * Runs the costly line merges of `triples` on a worker, all in one task within the parse budget
 * (422 `document_too_complex` past it), with the facts of each clean result derived there too.
 * Returns them by triple, and the facts by the merged text's sha256.
 */
async function mergeCostly(
  triples: readonly Triple[],
  texts: ReadonlyMap<string, string>,
): Promise<{ lines: Map<string, LineMerge>; facts: Map<string, DocumentFacts> }> {
  const lines = new Map<string, LineMerge>();
  const facts = new Map<string, DocumentFacts>();
  const text = (sha: string | undefined) => {
    const found = sha === undefined ? '' : texts.get(sha);
    if (found === undefined) throw new Error(`document ${sha} was not prefetched for the merge`);
    return found;
  };
  const costly = triples.filter((triple) => {
    const [base, ours, theirs] = triple.map(text) as [string, string, string];
    if (Math.max(base.length, ours.length, theirs.length) > MAIN_THREAD_MERGE_BYTES) return true;
    return lineMergeCost(base, ours, theirs) >= MAIN_THREAD_MERGE_COST;
  });
  if (costly.length === 0) return { lines, facts };
  const merges = costly.map(([base, ours, theirs]) => ({ base: text(base), ours: text(ours), theirs: text(theirs) }));
  const done = await runParse(
    { kind: 'merge', merges },
    'the line merge of the documents both sides changed',
    'run',
    'make the edits on one side only, or split the documents into smaller pages',
  );
  done.merged.forEach((result, i) => {
    lines.set(tripleKey(costly[i]!), result.kind === 'clean' ? { kind: 'clean', text: result.text } : { kind: 'conflict' });
    if (result.kind === 'clean' && !('ok' in result.facts)) facts.set(sha256(Buffer.from(result.text, 'utf8')), result.facts);
  });
  return { lines, facts };
}
