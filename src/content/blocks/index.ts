export type { GitbookBlock, BlockProblem } from './types.js';
export { parseTag, includeTarget, type Tag } from './tag.js';
export { isKnownTag, isIntegration, WRAPPING_TAGS, OPTIONALLY_WRAPPING_TAGS, SINGLE_TAGS, type KnownTagName } from './syntax.js';
export { parseGitbookMarkdown, type GitbookMarkdown } from './parse.js';
