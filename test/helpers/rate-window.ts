/**
 * The hosted API's rate limit as its answers show it: a fixed window of one second, every answer
 * carrying `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset` (the window's
 * end, epoch seconds), and a request past the limit answered 429 with those headers and no
 * `Retry-After`. `block(ms)` refuses everything for a while (a burst penalty), so a test can
 * make a client meet a 429 whatever its own budget says.
 */
export interface RateWindow {
  /** Counts one request: its headers, and whether it is refused. */
  take(): { refused: boolean; headers: Record<string, string> };
  block(ms: number): void;
}

export function rateWindow(perSecond: number | undefined, now: () => number = Date.now): RateWindow {
  let second = -1;
  let used = 0;
  let blockedUntil = 0;
  return {
    take(): { refused: boolean; headers: Record<string, string> } {
      const t = now();
      const current = Math.floor(t / 1000);
      if (current !== second) [second, used] = [current, 0];
      used += 1;
      if (t < blockedUntil) {
        return {
          refused: true,
          headers: {
            'x-ratelimit-limit': String(perSecond ?? 0),
            'x-ratelimit-remaining': '0',
            'x-ratelimit-reset': String(Math.ceil(blockedUntil / 1000)),
          },
        };
      }
      if (perSecond === undefined) return { refused: false, headers: {} };
      return {
        refused: used > perSecond,
        headers: {
          'x-ratelimit-limit': String(perSecond),
          'x-ratelimit-remaining': String(Math.max(0, perSecond - used)),
          'x-ratelimit-reset': String(current + 1),
        },
      };
    },
    block(ms) {
      blockedUntil = now() + ms;
    },
  };
}
