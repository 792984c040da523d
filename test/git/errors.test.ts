import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GIT_ERROR_CODES, GitError, isGitError } from '../../src/git/index.js';

describe('GitError', () => {
  it('documents every code in docs/git.md', () => {
    const doc = readFileSync(new URL('../../docs/git.md', import.meta.url), 'utf8');
    const documented = [...doc.matchAll(/^\| `([a-z-]+)` \|/gm)].map((m) => m[1]);
    expect(documented.sort()).toEqual([...GIT_ERROR_CODES].sort());
  });

  it('carries code and data, and isGitError checks the code', () => {
    const error = new GitError('ref-moved', 'refs/heads/main moved', { branch: 'main' });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('GitError');
    expect(isGitError(error)).toBe(true);
    expect(isGitError(error, 'ref-moved')).toBe(true);
    expect(isGitError(error, 'not-found')).toBe(false);
    expect(isGitError(new Error('x'))).toBe(false);
    expect(error.data).toEqual({ branch: 'main' });
  });
});
