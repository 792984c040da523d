import { COMPARE_OPERATORS, CONDITION_ROOT, ConditionSyntaxError, type CompareOperator, type ConditionNode } from './ast.js';
import { tokenize, type Token } from './tokenize.js';

/*
 * Recursive descent over the grammar in docs/api.md ("Conditions"), lowest precedence first:
 * or, and, comparison, not, operand, as in JavaScript (`!a == b` is `(!a) == b`). A comparison
 * does not chain (`a == b == c` is an error): chained, it rarely means what it reads as.
 */

const describe = (t: Token) =>
  t.kind === 'end' ? 'end of condition' : t.kind === 'string' ? 'a string' : t.kind === 'number' ? 'a number' : `"${t.value}"`;

/** Parses a condition; throws ConditionSyntaxError with the position of the first problem. */
export function parseCondition(text: string): ConditionNode {
  const tokens = tokenize(text);
  let i = 0;
  const peek = () => tokens[i]!;
  const isPunct = (value: string) => peek().kind === 'punct' && (peek() as { value: string }).value === value;
  const fail = (expected: string): never => {
    throw new ConditionSyntaxError(`expected ${expected}, found ${describe(peek())}`, peek().at);
  };

  function or(): ConditionNode {
    let left = and();
    while (isPunct('||')) {
      i += 1;
      left = { type: 'or', left, right: and() };
    }
    return left;
  }
  function and(): ConditionNode {
    let left = comparison();
    while (isPunct('&&')) {
      i += 1;
      left = { type: 'and', left, right: comparison() };
    }
    return left;
  }
  function comparison(): ConditionNode {
    const left = not();
    const token = peek();
    if (token.kind === 'punct' && (COMPARE_OPERATORS as readonly string[]).includes(token.value)) {
      i += 1;
      return { type: 'compare', op: token.value as CompareOperator, left, right: not() };
    }
    return left;
  }
  function not(): ConditionNode {
    if (isPunct('!')) {
      i += 1;
      return { type: 'not', operand: not() };
    }
    return operand();
  }
  function operand(): ConditionNode {
    const token = peek();
    if (token.kind === 'string' || token.kind === 'number') {
      i += 1;
      return { type: 'literal', value: token.value };
    }
    if (token.kind === 'punct' && token.value === '(') {
      i += 1;
      const inner = or();
      if (!isPunct(')')) fail('")"');
      i += 1;
      return inner;
    }
    if (token.kind !== 'name') return fail('a value, a name or "("');
    i += 1;
    if (token.value === 'true' || token.value === 'false') return { type: 'literal', value: token.value === 'true' };
    if (token.value === 'null') return { type: 'literal', value: null };
    if (token.value !== CONDITION_ROOT) {
      throw new ConditionSyntaxError(`unknown name "${token.value}" (conditions read ${CONDITION_ROOT}.claims...)`, token.at);
    }
    const path = [token.value];
    for (;;) {
      if (isPunct('.')) {
        i += 1;
        const name = peek();
        if (name.kind !== 'name') fail('a name after "."');
        path.push((name as { value: string }).value);
        i += 1;
      } else if (isPunct('[')) {
        i += 1;
        const key = peek();
        if (key.kind !== 'string') fail('a quoted key after "["');
        path.push((key as { value: string }).value);
        i += 1;
        if (!isPunct(']')) fail('"]"');
        i += 1;
      } else {
        return { type: 'path', path };
      }
    }
  }

  const tree = or();
  if (peek().kind !== 'end') fail('"&&", "||" or the end of the condition');
  return tree;
}
