export * from './ast.js';
export { parseCondition } from './parse.js';
export { evaluateCondition, type ConditionContext } from './evaluate.js';
export { printCondition } from './print.js';
