/**
 * What GitBook's Git Sync markdown does with each tag name: the tags that always wrap content,
 * those that may (`{% embed url %}` alone, or with a caption before `{% endembed %}`), those that
 * never do, and the separators inside an `{% if %}`. Any other name is an unknown tag.
 */
export const WRAPPING_TAGS = [
  'hint',
  'tabs',
  'tab',
  'code',
  'stepper',
  'step',
  'columns',
  'column',
  'content-ref',
  'if',
  'swagger',
] as const;
export const OPTIONALLY_WRAPPING_TAGS = ['embed', 'file', 'openapi', 'openapi-operation', 'openapi-schemas', 'openapi-webhook'] as const;
export const SINGLE_TAGS = ['include'] as const;
export const BRANCH_TAGS = ['elif', 'elsif', 'else'] as const;

export type KnownTagName = (typeof WRAPPING_TAGS)[number] | (typeof OPTIONALLY_WRAPPING_TAGS)[number] | (typeof SINGLE_TAGS)[number];

const has = (list: readonly string[], name: string) => list.includes(name);
export const isWrapping = (name: string) => has(WRAPPING_TAGS, name);
export const isOptionallyWrapping = (name: string) => has(OPTIONALLY_WRAPPING_TAGS, name);
export const isBranch = (name: string) => has(BRANCH_TAGS, name);
/** An integration's block, `{% @owner/block props %}` (`@mermaid/diagram`, `@figma/embed`): always a single tag. */
export const isIntegration = (name: string) => /^@[\w-]+\/[\w-]+$/.test(name);
export const isKnownTag = (name: string) => isWrapping(name) || isOptionallyWrapping(name) || has(SINGLE_TAGS, name) || isIntegration(name);
