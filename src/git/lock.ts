/**
 * Serialises async work per key within this process (isomorphic-git's utils/lock does the same
 * for its index). Across processes, git's own `.lock` files do that job; see update-ref.ts.
 */
const tails = new Map<string, Promise<unknown>>();

export async function withKeyLock<T>(key: string, work: () => Promise<T>): Promise<T> {
  const previous = tails.get(key) ?? Promise.resolve();
  const run = previous.then(work, work);
  const tail = run.catch(() => undefined);
  tails.set(key, tail);
  try {
    return await run;
  } finally {
    // Forget the key once nobody queued behind us, so the map does not grow with every branch.
    if (tails.get(key) === tail) tails.delete(key);
  }
}
