import { badRequest } from '../../model/index.js';
import { ConditionSyntaxError, parseCondition } from '../../content/index.js';

/** A condition to store: null removes it; text must parse (400 naming the field and the position). */
export function checkedCondition(text: string | null, field: string): string | null {
  if (text === null) return null;
  try {
    parseCondition(text);
  } catch (error) {
    if (error instanceof ConditionSyntaxError) throw badRequest(`${field} is not a valid condition: ${error.message}`);
    throw error;
  }
  return text;
}
