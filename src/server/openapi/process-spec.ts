import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';
import { findSpecById, recordProcessing, setSpecState, type ProcessingOutcome } from '../store/openapi-specs.js';
import { readSpec, specFetchBudget, SpecProcessError, type ReadSpec } from './read-spec.js';

export const PROCESS_OPENAPI_SPEC = 'process-openapi-spec';

export interface ProcessSpecPayload {
  specId: string;
  /** Whether the server that queued the job was started with `--allow-private-fetch`. */
  allowPrivate: boolean;
}

/** A read spec as the version it becomes. */
export function versionOf(read: ReadSpec, sourceUrl: string | null): ProcessingOutcome {
  return { ok: true, version: { digest: read.digest, source_url: sourceUrl, entry: read.entry, filesystem: JSON.stringify(read.files) } };
}

/**
 * The job: fetch, parse and validate the spec's current source, then record a version (when the
 * content changed) or the error. `processingState` is `progress` while it runs; a server that
 * stops mid-way leaves the job claimed, and the runner hands it to another process once the
 * claim lapses, so the spec always ends `complete`.
 */
export async function processSpec(db: Kysely<Database>, payload: ProcessSpecPayload, now: Date): Promise<void> {
  const spec = await findSpecById(db, payload.specId);
  if (!spec) return;
  const source = { url: spec.source_url, text: spec.source_text };
  await setSpecState(db, spec.id, 'progress');
  let outcome: ProcessingOutcome;
  try {
    // One fetch budget per run of the job, as a request has one.
    const read = await readSpec(source.url !== null ? { url: source.url } : { text: source.text ?? '' }, {
      allowPrivate: payload.allowPrivate,
      budget: specFetchBudget(),
    });
    outcome = versionOf(read, source.url);
  } catch (error) {
    if (!(error instanceof SpecProcessError)) throw error;
    outcome = { ok: false, code: error.code, errors: error.errors };
  }
  await recordProcessing(db, spec.id, source, outcome, now.toISOString());
}
