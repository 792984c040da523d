import type PQueue from 'p-queue';
import { header } from './retry.js';
import type { RetryTiming } from './request.js';
import type { Send } from './transport.js';

/**
 * Keeps a client inside the server's rate limit instead of running into it. Every answer that
 * says how many requests its window has left (`X-RateLimit-Remaining`) and when the window ends
 * (`X-RateLimit-Reset`, epoch seconds, as GitBook and our server send them) sets what the client
 * may still start in that window; each request started spends one. When none is left, the next
 * request waits for the window's end. A mirror of a large organization then finishes without a
 * 429 (the retry policy still handles one that comes anyway).
 *
 * Invariants: an answer's `remaining` was counted when the server saw that request, so requests
 * in flight beside it may not be in it yet: they are taken off (`remaining - others`), and the
 * allowance only ever goes down within one window (the lower of what was known and what the
 * answer says), since answers arrive out of order. A new window starts from `X-RateLimit-Limit`
 * when the server sent it, else unknown until its first answer (a burst of at most the queue's
 * concurrency). Waits are capped by `maxWait`: a reset far in the future (a clock skewed by
 * hours) must not stall the client for that long.
 */
const RESET_MARGIN = 50;

export function withRateBudget(send: Send, queue: PQueue, timing: Pick<RetryTiming, 'now' | 'sleep'>, maxWait: number): Send {
  // What may still start in the window ending at `windowEnd`; undefined: not known.
  let left: number | undefined;
  let windowEnd = 0;
  let limit: number | undefined;
  const roll = (now: number) => {
    if (now < windowEnd) return;
    left = limit;
    windowEnd = Number.POSITIVE_INFINITY;
  };
  return async (request) => {
    roll(timing.now());
    if (left !== undefined && left <= 0 && Number.isFinite(windowEnd)) {
      // A little past the reset: timers and the server's clock may round the other way.
      await timing.sleep(Math.max(0, Math.min(maxWait, windowEnd - timing.now() + RESET_MARGIN)));
      // The first to wake opens the new window; the others spend from it.
      roll(timing.now());
    }
    if (left !== undefined) left -= 1;
    const answer = await send(request);

    const remaining = Number(header(answer.headers, 'x-ratelimit-remaining'));
    const reset = Number(header(answer.headers, 'x-ratelimit-reset'));
    const cap = Number(header(answer.headers, 'x-ratelimit-limit'));
    if (Number.isFinite(cap) && cap > 0) limit = cap;
    if (!Number.isFinite(remaining) || !Number.isFinite(reset)) return answer;
    const now = timing.now();
    const end = reset < 1e9 ? now + reset * 1000 : reset * 1000;
    if (end <= now) return answer;
    const estimate = remaining - Math.max(0, queue.pending - 1);
    if (!Number.isFinite(windowEnd) || end === windowEnd) {
      // The first answer of the window, or another of it.
      windowEnd = end;
      left = left === undefined ? estimate : Math.min(left, estimate);
    } else if (end > windowEnd) {
      // The server's window moved on before our clock did.
      windowEnd = end;
      left = estimate;
    }
    return answer;
  };
}
