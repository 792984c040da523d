import { describe, expect, it } from 'vitest';
import { MAX_NESTING, markdownNestingProblem } from '../../src/content/changes/limits.js';

describe('markdownNestingProblem', () => {
  const deep = '['.repeat(MAX_NESTING + 1);

  it('refuses brackets nested past the limit within a paragraph', () => {
    expect(markdownNestingProblem(`text ${deep} more`)).toMatch(/brackets more than 64 deep/);
    expect(markdownNestingProblem(`${'['.repeat(40)}\n${'['.repeat(40)}`)).toMatch(/brackets/);
  });

  it('does not count brackets in fenced code, where a JSON example opens many (a real corpus page)', () => {
    const json = `${'[\n'.repeat(MAX_NESTING + 5)}`;
    expect(markdownNestingProblem(`Example:\n\n\`\`\`json\n${json}\`\`\`\n\nafter\n`)).toBeUndefined();
    expect(markdownNestingProblem(`~~~~\n${json}~~~~\n`)).toBeUndefined();
    // A shorter fence does not close a longer one: the brackets stay code.
    expect(markdownNestingProblem(`\`\`\`\`\n${json}\`\`\`\n${json}\`\`\`\`\n`)).toBeUndefined();
  });

  it('counts again after the fence closes', () => {
    expect(markdownNestingProblem(`\`\`\`\ncode\n\`\`\`\n${deep}\n`)).toMatch(/brackets/);
  });

  it('restarts the count at each paragraph, since a link never spans a blank line', () => {
    expect(markdownNestingProblem(`${'['.repeat(40)}\n\n${'['.repeat(40)}\n`)).toBeUndefined();
  });
});
