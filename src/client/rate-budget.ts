import type PQueue from 'p-queue';
import { header } from './retry.js';
import type { RetryTiming } from './request.js';
import type { Send } from './transport.js';

/**
 * Keeps a client inside the server's rate limit instead of running into it: every answer that
 * says how many requests the window has left (`X-RateLimit-Remaining`) and when it ends
 * (`X-RateLimit-Reset`, epoch seconds, as GitBook and our server send them) is read, and when the
 * requests already in flight would use up what is left, the queue starts no new request until
 * the window ends. A mirror of a large organization then finishes without a 429 (the retry
 * policy still handles one that comes anyway). Waits are capped by `maxWait`: a reset far in
 * the future (a clock skewed by hours) must not stall the client for that long.
 */
const RESET_MARGIN = 50;

export function withRateBudget(send: Send, queue: PQueue, timing: Pick<RetryTiming, 'now' | 'sleep'>, maxWait: number): Send {
  let resumeAt = 0;
  // Only the latest pause's timer starts the queue again: a later, longer window wins.
  let pauses = 0;
  return async (request) => {
    const answer = await send(request);
    const remaining = Number(header(answer.headers, 'x-ratelimit-remaining'));
    const reset = Number(header(answer.headers, 'x-ratelimit-reset'));
    if (!Number.isFinite(remaining) || !Number.isFinite(reset) || remaining > queue.pending) return answer;
    const now = timing.now();
    const until = reset < 1e9 ? now + reset * 1000 : reset * 1000;
    // A little past the reset: timers and the server's clock may round the other way.
    const wait = Math.min(maxWait, until - now + RESET_MARGIN);
    if (wait <= 0 || now + wait <= resumeAt) return answer;
    resumeAt = now + wait;
    const pause = (pauses += 1);
    queue.pause();
    void timing.sleep(wait).then(() => {
      if (pause === pauses) queue.start();
    });
    return answer;
  };
}
