import type { Client, ContentScope } from '../../client/index.js';
import {
  DEFAULT_PAGE_LAYOUT,
  type PageLayout,
  type RevisionFile,
  type RevisionPage,
  type RevisionReusableContent,
} from '../../model/index.js';
import type { KnownContent } from './known-content.js';
import { pagesWithMarkdown } from './pages.js';
import {
  DEFAULT_SUMMARY_TITLE,
  dumpYaml,
  GITBOOK_YAML,
  NEW_FOLDER_SETTINGS,
  parseGitbookYaml,
  renderGitbookYaml,
  type FolderSettings,
  type WorkspaceContent,
  type WorkspaceGitFile,
  type WorkspaceFile,
  type WorkspaceInclude,
  type WorkspacePage,
} from '../../workspace/index.js';

export interface RemoteContent {
  /** The revision the content is. */
  revision: string;
  content: WorkspaceContent;
}

/**
 * The layout options the page sets: those that differ from the defaults, and those it sets to
 * their default (`explicitLayout`, from a server with that extension; GitBook writes them).
 */
function layoutOf(page: RevisionPage): PageLayout | undefined {
  const layout = (page as { layout?: Record<string, unknown> }).layout;
  if (!layout) return undefined;
  const explicit = new Set(page.explicitLayout ?? []);
  const changed: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(layout)) {
    if ((DEFAULT_PAGE_LAYOUT as Record<string, unknown>)[key] !== value || explicit.has(key)) changed[key] = value;
  }
  return Object.keys(changed).length === 0 ? undefined : (changed as PageLayout);
}

/**
 * A page of the API as the workspace format holds it. With `keptFiles` (a server that stores
 * each page's file: the `git-path` extension), a document page is written at its `git.path`,
 * where the folder it was pushed from had it; without, where the Git Sync path rules put it.
 */
export function toWorkspacePage(page: RevisionPage, keptFiles = false): WorkspacePage {
  if (page.type === 'link') {
    return { type: 'link', id: page.id, title: page.title, href: page.href ?? page.target?.url ?? '' };
  }
  // Its generated pages (a read with `computed`) are the platform's, not the folder's.
  if (page.type === 'computed')
    return {
      type: 'computed',
      id: page.id,
      title: page.title,
      source: dumpYaml(page.computed ?? {}).replace(/\n$/, ''),
      slug: '',
      pages: [],
    };
  const children = (page.pages ?? []).map((child) => toWorkspacePage(child, keptFiles));
  if (page.type === 'group') return { type: 'group', id: page.id, title: page.title, slug: page.slug ?? '', pages: children };
  const layout = layoutOf(page);
  return {
    type: 'document',
    id: page.id,
    title: page.title,
    slug: page.slug ?? '',
    ...(page.linkTitle ? { linkTitle: page.linkTitle } : {}),
    ...(page.emoji ? { emoji: page.emoji } : {}),
    ...(page.icon ? { icon: page.icon } : {}),
    ...(page.description ? { description: page.description } : {}),
    ...(page.hidden ? { hidden: true } : {}),
    ...(page.noIndex ? { noIndex: true } : {}),
    ...(page.noRobotsIndex ? { noRobotsIndex: true } : {}),
    ...(page.condition ? { condition: page.condition } : {}),
    ...(layout ? { layout } : {}),
    ...(page.variables && Object.keys(page.variables).length > 0 ? { variables: page.variables } : {}),
    markdown: page.markdown ?? '',
    ...(keptFiles && page.git?.path !== undefined ? { path: page.git.path } : {}),
    ...(typeof page.frontMatter === 'string' && page.frontMatter !== '' ? { frontMatter: page.frontMatter } : {}),
    ...(page.titleHeading === false ? { titleHeading: false as const } : {}),
    pages: children,
  };
}

const INCLUDES = '.gitbook/includes/';

/**
 * A reusable content of the API as the workspace format holds it: its body, and its file when
 * the server names one (`git.path`), so the include is written where the pages embed it.
 */
export function toWorkspaceInclude(content: RevisionReusableContent): WorkspaceInclude {
  const path = content.git?.path;
  const name = path?.startsWith(INCLUDES) && !path.slice(INCLUDES.length).includes('/') ? path.slice(INCLUDES.length) : undefined;
  return { id: content.id, title: content.title, markdown: content.markdown ?? '', ...(name !== undefined ? { path: name } : {}) };
}

/**
 * The reusable contents of a revision with their bodies, one request each through the client's
 * queue. Only a server with docsync's `format=markdown` on these reads gives the bodies; from
 * another (the hosted API) none are read, so the folder has no includes rather than empty ones.
 */
async function fetchIncludes(client: Client, scope: ContentScope, listed: readonly RevisionReusableContent[]): Promise<WorkspaceInclude[]> {
  if (listed.length === 0 || !client.capabilities.extensions.has('reusable-content-markdown')) return [];
  return Promise.all(
    listed.map(async (content) => toWorkspaceInclude(await client.content.reusableContent(scope, content.id, { markdown: true }))),
  );
}

/**
 * The folder's settings and the files it keeps as written, from a revision's `gitFiles` (the
 * `git-files` extension): the stored `.gitbook.yaml` lays the folder out (and is kept as a file
 * where settings alone would not give its text); without one, a new folder's settings.
 */
export function folderOf(stored: readonly WorkspaceGitFile[]): { settings: FolderSettings; gitFiles: WorkspaceGitFile[] } {
  const config = stored.find((file) => file.path === GITBOOK_YAML);
  if (config === undefined) return { settings: { ...NEW_FOLDER_SETTINGS }, gitFiles: [...stored] };
  const settings: FolderSettings = { ...parseGitbookYaml(config.text).settings, summaryTitle: DEFAULT_SUMMARY_TITLE };
  return { settings, gitFiles: stored.filter((file) => file !== config || file.text !== renderGitbookYaml(settings)) };
}

/** What a fetch has in hand: `pages` whose markdown it has, `files` whose bytes it has, of how many. */
export interface FetchProgress {
  stage: 'pages' | 'files';
  done: number;
  total: number;
}

async function downloadFiles(
  client: Client,
  files: readonly RevisionFile[],
  report: (done: number, total: number) => void,
  known?: KnownContent,
): Promise<WorkspaceFile[]> {
  let done = 0;
  report(done, files.length);
  return Promise.all(
    files.map(async (file): Promise<WorkspaceFile> => {
      // The repository already has a blob of that oid (those are the bytes), or another scope is downloading it.
      const oid = file.git?.oid;
      const download = () => client.content.download(file);
      const bytes = oid !== undefined && known ? await known.fileOnce(oid, download) : await download();
      done += 1;
      report(done, files.length);
      return { id: file.id, name: file.name, contentType: file.contentType, bytes };
    }),
  );
}

/**
 * Everything of one scope (a space's live content, a change request, a revision) that the
 * folder carries: the page tree with each page's markdown (in the revision itself from our
 * server, else one request per page), the files with their bytes, the space variables, and the
 * reusable contents with their markdown (one request each, where the server offers it).
 * `onProgress` hears of pages (the total is known once the revision is read) and of files.
 * With `known` (a workspace's), bodies and files it already holds are not fetched again.
 */
export async function fetchContent(
  client: Client,
  scope: ContentScope,
  onProgress?: (event: FetchProgress) => void,
  known?: KnownContent,
): Promise<RemoteContent> {
  const revision = await client.content.revision(scope);
  // By revision, so every body and include is of the revision read, however the head moves.
  const byRevision = { space: scope.space, revision: revision.id };
  const [pages, files, reusableContents] = await Promise.all([
    pagesWithMarkdown(client, byRevision, revision.pages, (done, total) => onProgress?.({ stage: 'pages', done, total }), known),
    downloadFiles(client, revision.files, (done, total) => onProgress?.({ stage: 'files', done, total }), known),
    fetchIncludes(client, byRevision, revision.reusableContents ?? []),
  ]);
  const { settings, gitFiles } = folderOf(client.capabilities.extensions.has('git-files') ? (revision.gitFiles ?? []) : []);
  return {
    revision: revision.id,
    content: {
      pages: pages.map((page) => toWorkspacePage(page, client.capabilities.extensions.has('git-path'))),
      files,
      variables: revision.variables ?? {},
      reusableContents,
      settings,
      ...(gitFiles.length > 0 ? { gitFiles } : {}),
    },
  };
}
