import type { ConditionNode } from './ast.js';

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const PRECEDENCE = { or: 1, and: 2, compare: 3, not: 4, literal: 5, path: 5 } as const;

const quote = (text: string) =>
  `"${text
    .replace(/[\\"]/g, (c) => `\\${c}`)
    .replace(/\n/g, '\\n')
    .replace(/\t/g, '\\t')
    .replace(/\r/g, '\\r')}"`;

/** The canonical text of a condition: parsing it gives the same tree back. */
export function printCondition(node: ConditionNode): string {
  const wrap = (child: ConditionNode, min: number) => {
    const text = printCondition(child);
    return PRECEDENCE[child.type] < min ? `(${text})` : text;
  };
  switch (node.type) {
    case 'literal':
      return typeof node.value === 'string' ? quote(node.value) : String(node.value);
    case 'path':
      return node.path.map((step, i) => (i === 0 ? step : IDENTIFIER.test(step) ? `.${step}` : `[${quote(step)}]`)).join('');
    case 'not':
      return `!${wrap(node.operand, PRECEDENCE.not)}`;
    case 'and':
    case 'or': {
      const p = PRECEDENCE[node.type];
      // Left-associative: the right side needs parentheses at the same level.
      return `${wrap(node.left, p)} ${node.type === 'and' ? '&&' : '||'} ${wrap(node.right, p + 1)}`;
    }
    case 'compare':
      return `${wrap(node.left, PRECEDENCE.not)} ${node.op} ${wrap(node.right, PRECEDENCE.not)}`;
    default: {
      const never: never = node;
      throw new Error(`unknown condition node ${JSON.stringify(never)}`);
    }
  }
}
