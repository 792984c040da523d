/**
 * A visibility condition of a site section or site space, parsed (docs/api.md, "Conditions").
 * `path` names are the dotted or bracketed steps from `visitor`: `visitor.claims.unsigned.beta`
 * is `['visitor', 'claims', 'unsigned', 'beta']`.
 */
export type ConditionNode =
  | { type: 'literal'; value: string | number | boolean | null }
  | { type: 'path'; path: string[] }
  | { type: 'not'; operand: ConditionNode }
  | { type: 'and' | 'or'; left: ConditionNode; right: ConditionNode }
  | { type: 'compare'; op: CompareOperator; left: ConditionNode; right: ConditionNode };

export const COMPARE_OPERATORS = ['===', '!==', '==', '!=', '<=', '>=', '<', '>'] as const;
export type CompareOperator = (typeof COMPARE_OPERATORS)[number];

/** The only name a condition may start a path with. */
export const CONDITION_ROOT = 'visitor';

/** A condition that does not parse; `position` counts characters from 0. */
export class ConditionSyntaxError extends Error {
  readonly position: number;
  constructor(message: string, position: number) {
    super(`${message} at position ${position}`);
    this.name = 'ConditionSyntaxError';
    this.position = position;
  }
}
