import type { VariableValue } from '../model/index.js';
import { dumpYaml, isMapping, loadYaml } from '../content/index.js';

export const VARS_FILE = '.gitbook/vars.yaml';

const isValue = (v: unknown): v is VariableValue => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';

/** `.gitbook/vars.yaml`: a flat map of space variables. A wrong value is an error and skipped. */
export function parseVars(text: string): { variables: Record<string, VariableValue>; errors: [number | undefined, string][] } {
  const variables: Record<string, VariableValue> = {};
  const parsed = loadYaml(text);
  if (!parsed.ok)
    return { variables, errors: [[parsed.line === undefined ? undefined : parsed.line + 1, `not valid YAML: ${parsed.reason}`]] };
  if (parsed.value === null || parsed.value === undefined) return { variables, errors: [] };
  if (!isMapping(parsed.value)) return { variables, errors: [[1, 'must be a flat YAML mapping of variables']] };
  const errors: [number | undefined, string][] = [];
  const lines = text.split('\n');
  for (const [name, value] of Object.entries(parsed.value)) {
    if (isValue(value)) variables[name] = value;
    else {
      const index = lines.findIndex((l) => l.startsWith(`${name}:`));
      errors.push([index < 0 ? undefined : index + 1, `variable \`${name}\` must be a string, number or boolean`]);
    }
  }
  return { variables, errors };
}

/** `.gitbook/vars.yaml` for the variables; undefined when there are none. */
export function renderVars(variables: Record<string, VariableValue>): string | undefined {
  return Object.keys(variables).length === 0 ? undefined : dumpYaml(variables);
}
