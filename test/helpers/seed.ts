/**
 * A seeded test's seed: fixed by default, so that every run of the suite is the same run (as the
 * property tests' FC_SEED, README "Test it"); `NAME=<n>` replays a printed seed, `NAME=random`
 * explores a new one each run.
 */
export function seedFromEnv(name: string, fixed: number, range = 100_000): number {
  const value = process.env[name];
  if (value === undefined || value === '') return fixed;
  if (value === 'random') return Math.floor(Math.random() * range);
  const seed = Number(value);
  if (!Number.isSafeInteger(seed)) throw new Error(`${name} must be a whole number or "random", got "${value}"`);
  return seed;
}
