import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  COMPARE_OPERATORS,
  ConditionSyntaxError,
  evaluateCondition,
  parseCondition,
  printCondition,
  type ConditionNode,
} from '../../src/content/index.js';

const claims = (c: Record<string, unknown>) => ({ visitor: { claims: c } });
const holds = (text: string, c: Record<string, unknown>) => evaluateCondition(parseCondition(text), claims(c));

describe('conditions: parse and evaluate', () => {
  it('reads claims by dotted and bracketed paths; a missing claim is falsy and equals null', () => {
    expect(holds('visitor.claims.unsigned.beta', { unsigned: { beta: true } })).toBe(true);
    expect(holds('visitor.claims.unsigned.beta', { unsigned: { beta: false } })).toBe(false);
    expect(holds('visitor.claims.unsigned.beta', {})).toBe(false);
    expect(holds('visitor.claims["plan-name"] == "pro"', { 'plan-name': 'pro' })).toBe(true);
    expect(holds('visitor.claims.missing == null', {})).toBe(true);
    expect(holds('visitor.claims.constructor', {})).toBe(false);
    expect(holds('visitor.claims.toString == null', {})).toBe(true);
  });

  it('&&, ||, ! and parentheses follow JavaScript precedence', () => {
    const c = { a: true, b: false, n: 3 };
    expect(holds('visitor.claims.a && visitor.claims.b || visitor.claims.a', c)).toBe(true);
    expect(holds('visitor.claims.a && (visitor.claims.b || !visitor.claims.a)', c)).toBe(false);
    expect(holds('!visitor.claims.b && !!visitor.claims.a', c)).toBe(true);
    // `!x == y` is `(!x) == y`, as in JavaScript.
    expect(holds('!visitor.claims.n == false', c)).toBe(true);
    expect(holds('!(visitor.claims.n == 3)', c)).toBe(false);
  });

  it('comparisons are strict; ordering only between two numbers or two strings', () => {
    const c = { n: 3, s: 'b', t: '3' };
    expect(holds('visitor.claims.n === 3 && visitor.claims.n == 3 && visitor.claims.n != 4 && visitor.claims.n !== 4', c)).toBe(true);
    expect(holds('visitor.claims.t == 3', c)).toBe(false);
    expect(holds('visitor.claims.n >= 3 && visitor.claims.n <= 3 && visitor.claims.n > 2.5 && visitor.claims.n < 10', c)).toBe(true);
    expect(holds('visitor.claims.s > "a" && visitor.claims.s < "c"', c)).toBe(true);
    expect(holds('visitor.claims.t < 4', c)).toBe(false);
    expect(holds("visitor.claims.s == 'b'", c)).toBe(true);
    expect(holds('true && !false && null == null', c)).toBe(true);
  });

  it('refuses what does not parse, with the position (from 0) of the first problem', () => {
    const cases: [string, number][] = [
      ['visitor.claims.a &&', 19],
      ['visitor.claims.a & visitor.claims.b', 17],
      ['(visitor.claims.a', 17],
      ['visitor.claims.a)', 16],
      ['foo.bar', 0],
      ['visitor.claims.', 15],
      ['visitor.claims.a == 1 == 2', 22],
      ['"open', 0],
      ['visitor.claims["a"', 18],
      ['visitor.claims[a]', 15],
      ['1abc', 0],
      ['"a\\q"', 2],
      ['', 0],
      ['visitor.claims.a ; 1', 17],
    ];
    for (const [text, position] of cases) {
      let error: unknown;
      try {
        parseCondition(text);
      } catch (e) {
        error = e;
      }
      expect(error, text).toBeInstanceOf(ConditionSyntaxError);
      expect((error as ConditionSyntaxError).position, text).toBe(position);
      expect((error as Error).message).toMatch(new RegExp(`at position ${position}$`));
    }
  });
});

const name = fc.stringMatching(/^[A-Za-z_$][A-Za-z0-9_$]{0,6}$/);
const key = fc.oneof(name, fc.string({ maxLength: 6 }));
const literal: fc.Arbitrary<ConditionNode> = fc.oneof(
  fc.boolean().map((value) => ({ type: 'literal' as const, value })),
  fc.constant({ type: 'literal' as const, value: null }),
  fc
    .oneof(
      fc.nat({ max: 10_000 }),
      fc.integer({ min: 0, max: 9999 }).map((n) => n / 100),
    )
    .map((value) => ({ type: 'literal' as const, value })),
  fc.string({ maxLength: 8 }).map((value) => ({ type: 'literal' as const, value })),
);
const path: fc.Arbitrary<ConditionNode> = fc
  .array(key, { maxLength: 4 })
  .map((rest) => ({ type: 'path' as const, path: ['visitor', 'claims', ...rest] }));
const { tree } = fc.letrec<{ tree: ConditionNode }>((tie) => ({
  tree: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    literal,
    path,
    fc.record({ type: fc.constant('not' as const), operand: tie('tree') }),
    fc.record({ type: fc.constantFrom('and' as const, 'or' as const), left: tie('tree'), right: tie('tree') }),
    fc.record({ type: fc.constant('compare' as const), op: fc.constantFrom(...COMPARE_OPERATORS), left: tie('tree'), right: tie('tree') }),
  ),
}));
const claimValue = fc.oneof(fc.boolean(), fc.nat({ max: 20 }), fc.constantFrom('a', 'b', ''), fc.constant(null));

/** The reference semantics, written independently of the evaluator: JavaScript's own operators. */
function reference(node: ConditionNode, c: Record<string, unknown>): unknown {
  switch (node.type) {
    case 'literal':
      return node.value;
    case 'path': {
      let v: unknown = { visitor: { claims: c } };
      for (const step of node.path) v = v !== null && typeof v === 'object' && Object.hasOwn(v, step) ? (v as any)[step] : undefined;
      return v;
    }
    case 'not':
      return !reference(node.operand, c);
    case 'and':
      return Boolean(reference(node.left, c)) && Boolean(reference(node.right, c));
    case 'or':
      return Boolean(reference(node.left, c)) || Boolean(reference(node.right, c));
    case 'compare': {
      const l = reference(node.left, c) ?? null;
      const r = reference(node.right, c) ?? null;
      if (node.op === '==' || node.op === '===') return l === r;
      if (node.op === '!=' || node.op === '!==') return l !== r;
      if (!((typeof l === 'number' && typeof r === 'number') || (typeof l === 'string' && typeof r === 'string'))) return false;
      return { '<': l < r, '<=': l <= r, '>': l > r, '>=': l >= r }[node.op];
    }
  }
}

describe('conditions: properties', () => {
  it('printing then parsing gives the same tree, and evaluation agrees with the reference', () => {
    fc.assert(
      fc.property(tree, fc.dictionary(name, claimValue, { maxKeys: 4 }), (node, c) => {
        const text = printCondition(node);
        const parsed = parseCondition(text);
        expect(parsed).toEqual(node);
        expect(evaluateCondition(parsed, claims(c))).toBe(Boolean(reference(node, c)));
      }),
      { numRuns: 500 },
    );
  });

  it('any text either parses or fails with a ConditionSyntaxError at a position inside it', () => {
    const pieces = fc.constantFrom(
      'visitor',
      '.',
      'claims',
      ' ',
      '&&',
      '||',
      '!',
      '(',
      ')',
      '==',
      '<',
      '"x"',
      "'",
      '[',
      ']',
      '1',
      'true',
      'a',
      '\\',
      '=',
    );
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 30 }),
          fc.array(pieces, { maxLength: 12 }).map((p) => p.join('')),
        ),
        (text) => {
          try {
            parseCondition(text);
          } catch (error) {
            expect(error).toBeInstanceOf(ConditionSyntaxError);
            const position = (error as ConditionSyntaxError).position;
            expect(position).toBeGreaterThanOrEqual(0);
            expect(position).toBeLessThanOrEqual(text.length);
          }
        },
      ),
      { numRuns: 2000 },
    );
  });
});
