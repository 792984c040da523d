import { BaseError } from '../../model/index.js';

/**
 * Thrown inside an attempt's transaction when a compare-and-swap on a head lost (another writer
 * moved the space's or the change request's head since the attempt read it): the transaction
 * rolls back and {@link retryOnHeadMoved} builds again on the new head. It never leaves there.
 */
export class HeadMoved extends BaseError<'head-moved'> {
  constructor() {
    super('head-moved', 'a head moved during the write', { expected: false });
  }
}

/**
 * The one compare-and-swap retry loop of the content engine. Runs `attempt` (read the heads,
 * build the revision with no lock held, then store it and move the heads in one transaction)
 * up to `attempts` times: an attempt that throws {@link HeadMoved} is redone from the start, any
 * other failure ends at once. When every attempt lost its race, throws `exhausted()` (a 409).
 * Invariant: a head moves only from the revision the new one was built on, so no write is lost.
 */
export async function retryOnHeadMoved<T>(attempts: number, attempt: () => Promise<T>, exhausted: () => Error): Promise<T> {
  for (let n = 0; n < attempts; n += 1) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof HeadMoved)) throw error;
    }
  }
  throw exhausted();
}
