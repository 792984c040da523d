import { channel } from 'node:diagnostics_channel';

/**
 * The diagnostics channel on which the server announces the stretches of CPU work it does for one
 * request (a parse on a worker, a zip inflated in steps): `{ phase: 'start' | 'end', what }`.
 * Nothing subscribes in production, where a publish costs one flag check. The tests subscribe to
 * prove, by order rather than by a timing, that the event loop answers other requests while such
 * work runs (test/helpers/liveness.ts).
 */
export const WORK_CHANNEL = 'docsync:work';

export interface WorkEvent {
  phase: 'start' | 'end';
  what: string;
}

const work = channel(WORK_CHANNEL);

/** Runs `run`, announcing its start and end on the work channel when anyone listens. */
export async function announcedWork<T>(what: string, run: () => Promise<T>): Promise<T> {
  // Decided once, so a subscriber that arrives midway never sees an end without its start.
  if (!work.hasSubscribers) return run();
  work.publish({ phase: 'start', what } satisfies WorkEvent);
  try {
    return await run();
  } finally {
    work.publish({ phase: 'end', what } satisfies WorkEvent);
  }
}
