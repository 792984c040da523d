import { defineConfig } from 'vitest/config';

// Test files that read the real Git Sync exports (test/helpers/corpus.ts) have `corpus` in their
// name and run only when DOCSYNC_CORPUS_DIR names those exports (`.ci/run` sets it): without it
// they are not part of the run at all, rather than skipped or passing on nothing.
const corpusTests = '**/*corpus*.test.ts';
// Test files that drive a real browser have `browser` in their name and run only when
// DOCSYNC_CHROMIUM names a Chromium executable (`.ci/run` and `npm run test:browser` set it);
// set, a missing executable fails them loudly (test/helpers/chromium.ts), never a skip.
const browserTests = '**/*browser*.test.ts';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: [
      '**/node_modules/**',
      ...(process.env.DOCSYNC_CORPUS_DIR ? [] : [corpusTests]),
      ...(process.env.DOCSYNC_CHROMIUM ? [] : [browserTests]),
    ],
    setupFiles: ['test/setup-fast-check.ts', 'test/setup-limits.ts'],
    // Server tests open real databases and listen on ports; two workers suit the 2-core machines.
    pool: 'forks',
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
