import { DOCSYNC_EXTENSIONS, type DocsyncExtension } from '../model/index.js';

/**
 * What the sync tool cannot round-trip on a server without each of docsync's extensions (the
 * hosted API has none), as the code degrades it: push/extensions.ts leaves the change out and
 * reports it, remote/content.ts skips the read, the pages listing falls back to one request per
 * page. A Record over every extension, so a new one breaks the build until it says what its
 * absence costs. `docsync doctor` prints it.
 */
export const WITHOUT_EXTENSION: Readonly<Record<DocsyncExtension, string>> = {
  'page-types':
    'group and link pages (SUMMARY.md `## Group` headings, `[Title](https://...)` entries) are not created and links not re-pointed: push names them NOT SENT (exit 4), the branch keeps them, merge goes on without them',
  'link-title':
    'a link title (the quoted label of a SUMMARY.md entry, `[Title](page.md "Label")`) is not set: push names it NOT SENT (exit 4) and SUMMARY.md keeps it',
  'set-variables': '.gitbook/vars.yaml (space variables) is not sent: push names it NOT SENT (exit 4)',
  'replace-files':
    'an asset replaced under the same name is not sent (the server would add a second file of that name): push names it NOT SENT (exit 4)',
  'delete-file': 'a deleted asset stays on the platform: push says "kept on the platform"',
  'markdown-listing':
    'each page body is read with a request of its own: a clone costs one request per distinct page and file, a pull or read-back only the pages and files whose content changed',
  'insert-reusable-content': 'a new file in .gitbook/includes/ (reusable content) is not sent: push names it NOT SENT (exit 4)',
  'update-reusable-content': 'a changed file in .gitbook/includes/ (reusable content) is not sent: push names it NOT SENT (exit 4)',
  'delete-reusable-content': 'a deleted file in .gitbook/includes/ (reusable content) is not sent: push names it NOT SENT (exit 4)',
  'reusable-content-markdown': 'reusable content is not read: clone and pull write no .gitbook/includes/',
  'git-path': 'a page file is not kept where the writer put it: clone and pull write each page where the Git Sync path rules put it',
  'explicit-layout':
    'a layout option a page sets to its default value (`title: visible: true`, as GitBook writes them) is left out of its front matter by clone and pull',
  'computed-pages':
    'an OpenAPI reference entry of SUMMARY.md (a computed page) is not created or changed: push names it NOT SENT (exit 4) and SUMMARY.md keeps it',
  'front-matter':
    "front matter is written back in docsync's canonical form (GitBook's keys in GitBook's order, long strings folded) rather than as the writer wrote it (key order, quoting, comments)",
  'git-files':
    "`.gitbook.yaml` and `.md` files SUMMARY.md does not list are not sent: they stay in the writer's folder (push names them once, NOT A PAGE), and a fresh clone writes `.gitbook.yaml` with `root: ./` only",
  'title-heading': 'a page file written without its title heading (`# Title`) gets one from clone and pull',
  'changed-pages':
    'a pull reads the whole revision (every page, and every page body through the cache) to bring in a platform edit of one page',
  'space-events': '`docsync watch` learns of platform edits by polling (every `--poll` interval, 10 s) instead of within a second of them',
};

export interface ServerLimit {
  extension: DocsyncExtension;
  /** What the tool cannot do on this server for want of `extension`. */
  without: string;
}

/** The limits of a server offering `extensions`, in the order of DOCSYNC_EXTENSIONS (the header's order). */
export function serverLimits(extensions: ReadonlySet<string>): ServerLimit[] {
  return DOCSYNC_EXTENSIONS.filter((extension) => !extensions.has(extension)).map((extension) => ({
    extension,
    without: WITHOUT_EXTENSION[extension],
  }));
}
