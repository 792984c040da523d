import { parse } from 'bcp-47';
import { badRequest } from '../../model/index.js';

/** Names of languages as ICU (node's full ICU) knows them; undefined for an unknown subtag. */
const LANGUAGE_NAMES = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });

/**
 * Checks each tag is a BCP 47 language tag: well-formed (bcp-47, legacy tags not rewritten)
 * and with a primary language subtag that names a language (`english` is well-formed but is
 * no language; private-use `x-…` tags name none). Tags are case-insensitive and each may
 * appear once. `field` names the body field in the 400.
 */
export function checkLanguages(tags: readonly string[], field: string): string[] {
  const seen = new Map<string, number>();
  tags.forEach((tag, i) => {
    let problem: string | undefined;
    const schema = parse(tag, { normalize: false, warning: (reason) => void (problem ??= reason) });
    const refuse = (why: string) => badRequest(`${field}.${i}: "${tag}" is not a BCP 47 language tag (${why})`);
    if (!schema.language) throw refuse(problem ?? 'it has no language subtag');
    if (LANGUAGE_NAMES.of(schema.language) === undefined) throw refuse(`"${schema.language}" is not a known language`);
    const key = tag.toLowerCase();
    const first = seen.get(key);
    if (first !== undefined) throw badRequest(`${field}.${i}: "${tag}" is listed twice (also at ${field}.${first})`);
    seen.set(key, i);
  });
  return [...tags];
}
