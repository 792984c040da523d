import PQueue from 'p-queue';
import { ClientError } from './errors.js';

export interface QueueOptions {
  /** Requests in flight at once, per client. @default 8 */
  concurrency?: number;
  /**
   * At most this many requests start in any one-second window (p-queue's `intervalCap` over an
   * `interval` of 1000 ms). Unset: no cap beyond `concurrency`.
   */
  requestsPerSecond?: number;
}

export const DEFAULT_CONCURRENCY = 8;

function positiveInteger(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) {
    throw new ClientError(
      'invalid-option',
      `client option \`${name}\` must be a whole number of at least 1, got ${String(value)} (${typeof value})`,
    );
  }
  return value;
}

/** One queue per client: every attempt of every request waits for a slot here. */
export function createQueue(options: QueueOptions = {}): PQueue {
  const concurrency = positiveInteger('concurrency', options.concurrency ?? DEFAULT_CONCURRENCY);
  if (options.requestsPerSecond === undefined) return new PQueue({ concurrency });
  const intervalCap = positiveInteger('requestsPerSecond', options.requestsPerSecond);
  return new PQueue({ concurrency, intervalCap, interval: 1000 });
}
