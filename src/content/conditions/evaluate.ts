import type { ConditionNode } from './ast.js';

/** What a condition can read: `visitor.claims` (the signed claims, with `unsigned` inside). */
export interface ConditionContext {
  visitor: { claims: Record<string, unknown> };
}

type Value = unknown;

function lookup(root: Value, path: readonly string[]): Value {
  let value: Value = root;
  for (const step of path) {
    // Own properties of plain objects and arrays only: `visitor.constructor` is undefined, not a function.
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, step)) return undefined;
    value = (value as Record<string, Value>)[step];
  }
  return value;
}

/** A missing claim compares like null, so `visitor.claims.x == null` holds when x is absent. */
const normalise = (value: Value): Value => (value === undefined ? null : value);

function compare(op: string, a: Value, b: Value): boolean {
  const left = normalise(a);
  const right = normalise(b);
  switch (op) {
    case '==':
    case '===':
      return left === right;
    case '!=':
    case '!==':
      return left !== right;
    default: {
      // Ordering only between two numbers or two strings; anything else is simply false.
      const comparable = (typeof left === 'number' && typeof right === 'number') || (typeof left === 'string' && typeof right === 'string');
      if (!comparable) return false;
      const l = left as number | string;
      const r = right as number | string;
      return op === '<' ? l < r : op === '<=' ? l <= r : op === '>' ? l > r : l >= r;
    }
  }
}

function value(node: ConditionNode, context: ConditionContext): Value {
  switch (node.type) {
    case 'literal':
      return node.value;
    case 'path':
      return lookup({ visitor: context.visitor }, node.path);
    case 'not':
      return !value(node.operand, context);
    case 'and':
      return Boolean(value(node.left, context)) && Boolean(value(node.right, context));
    case 'or':
      return Boolean(value(node.left, context)) || Boolean(value(node.right, context));
    case 'compare':
      return compare(node.op, value(node.left, context), value(node.right, context));
    default: {
      const never: never = node;
      throw new Error(`unknown condition node ${JSON.stringify(never)}`);
    }
  }
}

/** True when a visitor with these claims sees what the condition guards (JavaScript truthiness). */
export function evaluateCondition(node: ConditionNode, context: ConditionContext): boolean {
  return Boolean(value(node, context));
}
