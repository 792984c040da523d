export { appendImported, type AppendedImport, type ImportContext } from './append-pages.js';
export { folderIncludes, folderPages } from './git-sync-folder.js';
export { htmlToMarkdown, type ConvertedHtml } from './html-to-markdown.js';
export type { ImportOutcome, ImportedInclude, ImportedPage } from './types.js';
