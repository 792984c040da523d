import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Piscina } from 'piscina';
import { DocsyncError } from '../../model/index.js';
import { PARSE_LIMITS } from './limits.js';
import type { ParseResult, ParseTask } from './tasks.js';
import { announcedWork } from '../util/work-channel.js';

/**
 * The worker entry: the compiled `worker.js` beside this file in the package; from the sources
 * (tests, `tsx`), `worker.ts` run through tsx's loader.
 */
function workerEntry(): { filename: string; execArgv: string[] } {
  const compiled = new URL('./worker.js', import.meta.url);
  if (existsSync(fileURLToPath(compiled))) return { filename: compiled.href, execArgv: [] };
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return { filename: new URL('./worker.ts', import.meta.url).href, execArgv: ['--import', tsx] };
}

let pool: Piscina | undefined;

/**
 * One pool per process, shared by every app in it (as the thread pool of a runtime is): threads
 * start on demand and end after a minute idle, and an idle pool keeps no process alive.
 */
function parsePool(): Piscina {
  if (!pool) {
    const { filename, execArgv } = workerEntry();
    pool = new Piscina({
      filename,
      execArgv,
      minThreads: 0,
      maxThreads: Math.max(2, availableParallelism()),
      idleTimeout: 60_000,
      // The queue bounds the work waiting: past it a request is told to come back (429), not held.
      maxQueue: 'auto',
    });
  }
  return pool;
}

/** Seconds a refused request is told to wait before trying again. */
const RETRY_AFTER_S = 5;

/**
 * Runs a parse task on a worker thread within `PARSE_LIMITS.budgetMs` (counted from the request,
 * queueing included). Past the budget the worker is ended (the parse stops) and the request is
 * refused with 422 `document_too_complex`, so no input holds a thread, let alone the event loop.
 */
export async function runParse<K extends ParseTask['kind']>(
  task: Extract<ParseTask, { kind: K }>,
  what: string,
  doing = 'parse',
  advice = 'send fewer or smaller documents per request, or simplify the markdown',
): Promise<Extract<ParseResult, { kind: K }>> {
  const refused = () =>
    new DocsyncError(
      'document_too_complex',
      `${what} took longer than ${PARSE_LIMITS.budgetMs / 1000} s to ${doing} and was stopped; ${advice}`,
    );
  // No budget is no parse: a tiny task could otherwise answer before a 0 ms timer fires.
  if (PARSE_LIMITS.budgetMs <= 0) throw refused();
  const signal = AbortSignal.timeout(PARSE_LIMITS.budgetMs);
  const workers = parsePool();
  if (workers.queueSize >= workers.options.maxQueue) {
    throw new DocsyncError('rate_limited', `the server is busy parsing other documents; try again in ${RETRY_AFTER_S} seconds`, {
      retryAfter: RETRY_AFTER_S,
    });
  }
  try {
    return (await announcedWork(`${doing} ${what}`, () => workers.run(task, { signal }))) as Extract<ParseResult, { kind: K }>;
  } catch (error) {
    if (signal.aborted) throw refused();
    throw error;
  }
}
