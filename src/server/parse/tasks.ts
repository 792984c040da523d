import {
  appendImported,
  applyChanges,
  documentFacts,
  readSubmittedDocument,
  folderIncludes,
  folderPages,
  htmlToMarkdown,
  mergeText,
  type AppendedImport,
  type ApplyResult,
  type ConvertedHtml,
  type DocumentFacts,
  type ImportedInclude,
  type ImportedPage,
  type PreparedFile,
} from '../../content/index.js';
import { assertNever, type ChangeDocument, type ContentChange, type ContentTree, type TreeFile } from '../../model/index.js';
import { sha256 } from '../store/blobs.js';
import { newId } from '../util/ids.js';
import { renderPdf, type PdfPage } from '../pdf/render-pdf.js';
import { renderPage, type RenderOptions, type RenderSite, type RenderedPage, type SitePage } from '../../render/index.js';

/**
 * The work that parses (or renders) user content, run in a worker thread (pool.ts) so that none
 * of it holds the event loop. Inputs and outputs are structured-clone values: no functions cross the boundary,
 * so ids and hashes are made here. Expected failures are returned, not thrown (an Error loses
 * its class on the way back).
 */
export type ParseTask =
  | {
      kind: 'apply';
      tree: ContentTree;
      changes: readonly ContentChange[];
      now: string;
      revisions: Map<string, ContentTree>;
      defaultRevision: string;
      files: Map<string, PreparedFile>;
      documents: Map<string, string>;
    }
  | { kind: 'append'; tree: ContentTree; pages: ImportedPage[]; files: TreeFile[]; includes: ImportedInclude[]; now: string }
  | { kind: 'measure'; documents: ChangeDocument[] }
  | { kind: 'facts'; texts: string[] }
  | { kind: 'merge'; merges: { base: string; ours: string; theirs: string }[] }
  | { kind: 'html'; html: string }
  | { kind: 'folder'; files: Map<string, string> }
  | { kind: 'pdf'; title: string; pages: PdfPage[]; createdAt: string }
  | { kind: 'render'; site: RenderSite; page: SitePage; markdown: string; options: RenderOptions };

/** Facts of each new document, by sha256: derived where the document is made. */
export type FactsBySha = [string, DocumentFacts][];

export type Refused = { ok: false; message: string; status: 400 | 409 };

/** A line merge done on a worker: a clean one comes back with the facts of its text. */
export type MergedLines = { kind: 'clean'; text: string; facts: DocumentFacts | Refused } | { kind: 'conflict' };

export type ParseResult =
  | { kind: 'apply'; result: ApplyResult; facts: FactsBySha }
  | { kind: 'append'; result: { ok: true; value: AppendedImport } | Refused; facts: FactsBySha }
  | { kind: 'measure'; ms: number; failed: boolean }
  | { kind: 'facts'; facts: (DocumentFacts | Refused)[] }
  | { kind: 'merge'; merged: MergedLines[] }
  | { kind: 'html'; result: ({ ok: true } & ConvertedHtml) | Refused }
  | { kind: 'folder'; result: { ok: true; pages: ImportedPage[]; includes: ImportedInclude[] } | Refused }
  | { kind: 'pdf'; bytes: Uint8Array }
  | { kind: 'render'; rendered: RenderedPage };

// A stack overflow is input nested past what the parser can walk: bad input, not a bug.
const TOO_DEEP: Refused = { ok: false, message: 'the document is nested too deeply to process', status: 400 };

function guarded<T>(work: () => T): T | Refused {
  try {
    return work();
  } catch (error) {
    if (error instanceof RangeError) return TOO_DEEP;
    throw error;
  }
}

export function factsOf(documents: Map<string, string>): FactsBySha {
  return [...documents].map(([sha, text]) => [sha, documentFacts(text)]);
}

export async function runParseTask(task: ParseTask): Promise<ParseResult> {
  switch (task.kind) {
    case 'apply': {
      const result = applyChanges(task.tree, task.changes, {
        newId,
        now: task.now,
        hash: sha256,
        revisions: task.revisions,
        defaultRevision: task.defaultRevision,
        files: task.files,
        readDocument: (sha) => task.documents.get(sha),
      });
      if (!result.ok) return { kind: 'apply', result, facts: [] };
      const facts = guarded(() => factsOf(result.documents));
      if (!Array.isArray(facts)) return { kind: 'apply', result: { ...facts, index: 0 }, facts: [] };
      return { kind: 'apply', result, facts };
    }
    case 'append': {
      const outcome = guarded(() =>
        appendImported(task.tree, task.pages, task.files, { newId, now: task.now, hash: sha256 }, task.includes),
      );
      if (!outcome.ok) return { kind: 'append', result: { ok: false, message: outcome.message, status: 400 }, facts: [] };
      const facts = guarded(() => factsOf(outcome.value.documents));
      if (!Array.isArray(facts)) return { kind: 'append', result: facts, facts: [] };
      return { kind: 'append', result: outcome, facts };
    }
    case 'measure': {
      // What applying costs is parsing the submitted documents (a few times over): timed here.
      const started = performance.now();
      let failed = false;
      for (const document of task.documents) {
        try {
          documentFacts(readSubmittedDocument(document).body);
        } catch {
          failed = true;
        }
      }
      return { kind: 'measure', ms: performance.now() - started, failed };
    }
    case 'facts':
      return { kind: 'facts', facts: task.texts.map((text) => guarded(() => documentFacts(text))) };
    case 'merge':
      return {
        kind: 'merge',
        merged: task.merges.map(({ base, ours, theirs }): MergedLines => {
          const merged = mergeText(base, ours, theirs);
          if (merged.kind === 'conflict') return { kind: 'conflict' };
          return { kind: 'clean', text: merged.text, facts: guarded(() => documentFacts(merged.text)) };
        }),
      };
    case 'html': {
      const converted = guarded(() => htmlToMarkdown(task.html));
      return { kind: 'html', result: 'ok' in converted ? converted : { ok: true, ...converted } };
    }
    case 'folder': {
      const read = guarded(() => ({ ok: true as const, pages: folderPages(task.files), includes: folderIncludes(task.files) }));
      return { kind: 'folder', result: read };
    }
    case 'pdf':
      return { kind: 'pdf', bytes: await renderPdf(task.title, task.pages, new Date(task.createdAt)) };
    case 'render':
      // The web pages' rendering (server/web/render-cache.ts): the renderer never throws on markdown.
      return { kind: 'render', rendered: renderPage(task.site, task.page, task.markdown, task.options) };
    default:
      return assertNever(task, 'parse task');
  }
}
