// GitBook's `layout` front matter is read and written in content/ (the server's front matter too).
export { readGitbookLayout as readLayout, renderLayout } from '../content/index.js';
