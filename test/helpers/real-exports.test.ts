import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// vitest.config.ts tells corpus tests by name; one that reads the corpus under another name
// would fail in every run without DOCSYNC_CORPUS_DIR instead of being left out.
const testDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.test.ts') ? [join(dir, e.name)] : [],
  );

describe('tests of the real Git Sync exports', () => {
  it('have `corpus` in their file name, so runs without DOCSYNC_CORPUS_DIR leave them out', () => {
    const readers = files(testDir).filter((f) => /helpers\/corpus\.js'/.test(readFileSync(f, 'utf8')));
    expect(readers.length).toBeGreaterThan(0);
    expect(readers.map((f) => relative(testDir, f)).filter((f) => !f.includes('corpus'))).toEqual([]);
  });
});
