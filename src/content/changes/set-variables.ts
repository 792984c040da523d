import { variableNameProblem, type SetVariablesChange } from '../../model/index.js';
import type { BatchState } from './state.js';
import { fail } from './types.js';

/**
 * Replaces the space variables whole, as `.gitbook/vars.yaml` states them all: a variable left
 * out is removed. The order sent is kept (the order of `.gitbook/vars.yaml` as written).
 */
export function setVariablesChange(state: BatchState, change: SetVariablesChange): void {
  const names = Object.keys(change.variables);
  for (const name of names) {
    const problem = variableNameProblem(name);
    if (problem) fail(`variables: name ${JSON.stringify(name)} ${problem}`);
    const value = change.variables[name];
    if (typeof value === 'number' && !Number.isFinite(value)) fail(`variables: ${name} must be a finite number`);
  }
  state.tree = { ...state.tree, variables: Object.fromEntries(names.map((name) => [name, change.variables[name]!])) };
}
