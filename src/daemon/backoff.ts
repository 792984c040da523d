/** How long the daemon waits before trying an unreachable server again. */
export interface BackoffPolicy {
  /** First wait in ms. @default 1000 */
  initialMs: number;
  /** Longest wait in ms. @default 60000 */
  maxMs: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = Object.freeze({ initialMs: 1_000, maxMs: 60_000 });

/**
 * The wait after the `failures`-th failure in a row (1 for the first): doubling from
 * `initialMs` up to `maxMs`, then `maxMs` for as long as the server stays away. `random` in
 * [0, 1) takes up to a quarter off, so that the daemons of a team do not all come back at the
 * same instant after an outage.
 */
export function backoffDelay(failures: number, random: number, policy: BackoffPolicy = DEFAULT_BACKOFF): number {
  const exponent = Math.min(Math.max(failures, 1) - 1, 30);
  const ceiling = Math.min(policy.maxMs, policy.initialMs * 2 ** exponent);
  return Math.round(ceiling * (1 - random / 4));
}
