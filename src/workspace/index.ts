export type * from './types.js';
export { DEFAULT_SUMMARY_TITLE, NEW_FOLDER_SETTINGS, holdsPages } from './types.js';
export { WORKSPACE_ERROR_CODES, WorkspaceError, type WorkspaceErrorCode } from './errors.js';
export { formatProblem, type ProblemCode, type WorkspaceProblem } from './problems.js';
export { readFolder, type ReadOptions, type ReadResult } from './read-folder.js';
export { renderDocument, writeFolder, type WrittenFolder } from './write-folder.js';
export { loadFolder, saveFolder } from './disk.js';
export { writeFileAtomic, type AtomicWriteOptions } from './atomic-write.js';
export { parseSummary, renderSummary, topItems, type Summary, type SummaryItem, type SummaryGroup, type SummaryPart } from './summary.js';
// The one front matter and YAML reader of both halves lives in content/ (shared with the server).
export { readFrontMatter as splitFrontMatter, writeFrontMatter as renderFrontMatter } from '../content/index.js';
export { readPageMeta, renderPageMeta, KEY_ORDER } from './page-meta.js';
export { parsePageFile, renderPageFile, splitMarkdown, joinMarkdown } from './page-file.js';
export { parseGitbookYaml, renderGitbookYaml, rootPrefix, structurePath, GITBOOK_YAML } from './gitbook-yaml.js';
export { parseVars, renderVars } from './vars.js';
export { dumpYaml, isMapping, loadYaml } from '../content/index.js';
export { parseInclude, renderInclude } from './includes.js';
export { contentTypeOf } from './assets.js';
