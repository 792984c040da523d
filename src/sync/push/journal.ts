import { removeJsonFile, writeJsonFile } from '../state/json-file.js';
import { access, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ContentChange } from '../../model/index.js';
import { SyncError } from '../errors.js';
import { stateDir } from '../state/state.js';

/**
 * The push journal (`.git/docsync/journal/<branch>.json`): the batches of a push in flight. Each
 * batch is recorded before it is sent and its result after, so a push killed at any point can
 * tell on the next run which batches landed (see `push`), and nothing is sent twice.
 */
export interface PushJournal {
  version: 1;
  branch: string;
  changeRequestId: string;
  /** The change request's head when the push began. */
  startRevision: string;
  batches: ContentChange[][];
  /** Batches that landed, in order; `revision` is the head after the last of them. */
  landed: number;
  revision: string;
  /** Batch refs → ids of what they created (a later batch's `into` may name one). */
  created: Record<string, string>;
  /** The batch being sent: it may or may not have landed. */
  inFlight?: number;
  /**
   * The branch commit the batches were planned from. A push resumed at another commit (the
   * writer committed meanwhile) compares the whole branch with the change request: the journal's
   * batches are not all there is to send. Absent in journals of older versions: treated so too.
   */
  head?: string;
  /** Batch refs → the file of the page each creates: where a resumed push finds those pages. */
  places?: Record<string, string>;
}

/**
 * True when the push this journal records was recorded in the branch's state: every batch
 * landed, and the state's change request and revision are the journal's. A push killed between
 * recording its result and removing its journal leaves such a journal; nothing is in flight.
 * (Before its first batch lands a journal's revision is the state's too, but then not every
 * batch landed: a journal file is written only for a push with batches.)
 */
export function pushRecorded(journal: PushJournal, synced: { changeRequestId?: string; remoteRevision: string } | undefined): boolean {
  return (
    synced !== undefined &&
    journal.landed === journal.batches.length &&
    journal.changeRequestId === synced.changeRequestId &&
    journal.revision === synced.remoteRevision
  );
}

/** Each page a landed batch created, by its id on the platform → its file on the branch. */
export function createdPlaces(journal: PushJournal): Map<string, string> {
  const places = new Map<string, string>();
  for (const [ref, path] of Object.entries(journal.places ?? {})) {
    const id = journal.created[ref];
    if (id !== undefined) places.set(id, path);
  }
  return places;
}

const journalDir = (workspace: string) => join(stateDir(workspace), 'journal');
const journalPath = (workspace: string, branch: string) => join(journalDir(workspace), `${encodeURIComponent(branch)}.json`);

export async function readJournal(workspace: string, branch: string): Promise<PushJournal | undefined> {
  let text: string;
  try {
    text = await readFile(journalPath(workspace, branch), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const journal = JSON.parse(text) as PushJournal;
    if (journal.version !== 1 || !Array.isArray(journal.batches)) throw new Error('unknown layout');
    return journal;
  } catch (error) {
    throw new SyncError(
      'damaged-state',
      `${journalPath(workspace, branch)} is damaged (${(error as Error).message}); delete it and push again (the next push compares with the change request's content)`,
    );
  }
}

/** True when the branch has a push journal: a push killed before it ended (or before removing it). */
export async function hasJournal(workspace: string, branch: string): Promise<boolean> {
  return access(journalPath(workspace, branch)).then(
    () => true,
    () => false,
  );
}

/** Atomic, and flushed to the file before the batch it announces is sent. */
export async function writeJournal(workspace: string, journal: PushJournal): Promise<void> {
  await mkdir(journalDir(workspace), { recursive: true });
  const target = journalPath(workspace, journal.branch);
  await writeJsonFile(target, journal, { pretty: false, flush: true });
}

export async function clearJournal(workspace: string, branch: string): Promise<void> {
  await removeJsonFile(journalPath(workspace, branch));
}

/**
 * Test hook: `DOCSYNC_TEST_KILL=<stage>:<batch>` kills the process with SIGKILL at that point of
 * batch number `<batch>` (from 0): `sent` after the server answered but before the journal
 * recorded it, `recorded` right after; `read-back:0` once the read-back moved the checked-out
 * branch to the server's form, and `caught-up:0` once the catch-up with main moved it, before
 * the files follow. Crash tests use it to stop a real push at every step.
 */
export function journalHook(stage: 'sent' | 'recorded' | 'read-back' | 'caught-up', batch: number): void {
  const wanted = process.env.DOCSYNC_TEST_KILL;
  if (wanted === `${stage}:${batch}`) process.kill(process.pid, 'SIGKILL');
}
