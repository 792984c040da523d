import { parseInclude, readFolder, rootPrefix, parseGitbookYaml, GITBOOK_YAML, type FileMap, type ReadResult, type WorkspaceDocument, type WorkspacePage } from '../workspace/index.js';
import type { RenderSite, SitePage } from '../render/index.js';

export interface PreviewSite {
  site: RenderSite;
  read: ReadResult;
  /** The folder's `.gitbook.yaml` root (`docs/`), '' for the folder itself. */
  prefix: string;
  byUrl: Map<string, SitePage>;
  /** Document pages by their file relative to the folder (root prefix included). */
  byFile: Map<string, SitePage>;
}

const INCLUDES = '.gitbook/includes/';
const ASSETS = '.gitbook/assets/';

/** `guides/install.md` → `/guides/install`; `README.md` → `/`; `guides/README.md` → `/guides`. */
export function urlOfPath(path: string): string {
  const bare = path.replace(/\.md$/i, '').replace(/(^|\/)README$/i, '');
  return `/${bare.split('/').map(encodeURIComponent).join('/')}`.replace(/\/$/, '') || '/';
}

/** The folder read by the workspace reader, as the renderer's site. */
export function previewSite(files: FileMap, title: string): PreviewSite {
  const read = readFolder(files);
  const config = files.get(GITBOOK_YAML);
  const prefix = typeof config === 'string' ? rootPrefix(parseGitbookYaml(config).settings.root) : '';
  const pathOf = new Map<WorkspaceDocument, string>();
  for (const [path, doc] of read.pages) pathOf.set(doc, path.slice(prefix.length));
  const byUrl = new Map<string, SitePage>();
  const byFile = new Map<string, SitePage>();
  const convert = (page: WorkspacePage): SitePage => {
    if (page.type === 'link') return { id: page.id, kind: 'link', title: page.title, url: page.href, pages: [] };
    if (page.type === 'group') return { id: page.id, kind: 'group', title: page.title, url: '', pages: page.pages.map(convert) };
    const path = pathOf.get(page) ?? `${page.slug}.md`;
    const site: SitePage = {
      id: page.id, kind: 'document', title: page.title, path, url: urlOfPath(path), pages: page.pages.map(convert),
      ...(page.linkTitle !== undefined ? { linkTitle: page.linkTitle } : {}), ...(page.hidden ? { hidden: true } : {}),
      ...(page.emoji !== undefined ? { emoji: page.emoji } : {}), ...(page.description !== undefined ? { description: page.description } : {}),
      ...(page.layout !== undefined ? { layout: page.layout } : {}), ...(page.variables !== undefined ? { variables: page.variables } : {}),
      ...(page.cover !== undefined ? { cover: coverOf(page, read) } : {}),
    };
    byUrl.set(site.url, site);
    byFile.set(prefix + path, site);
    return site;
  };
  const pages = read.content.pages.map(convert);
  const includes = new Map<string, string>();
  const assets = new Set<string>();
  for (const [path, value] of files) {
    if (!path.startsWith(prefix)) continue;
    const inner = path.slice(prefix.length);
    if (inner.startsWith(INCLUDES) && typeof value === 'string') {
      const parsed = parseInclude(value);
      includes.set(inner, parsed.ok ? parsed.markdown : value);
    } else if (inner.startsWith(ASSETS)) assets.add(inner);
  }
  return { site: { title: read.content.settings.summaryTitle && read.content.settings.summaryTitle !== 'Table of contents' ? read.content.settings.summaryTitle : title, pages, variables: read.content.variables, includes, assets }, read, prefix, byUrl, byFile };
}

/** A cover naming a file of the space by id, as the path of that asset. */
function coverOf(page: WorkspaceDocument, read: ReadResult): SitePage['cover'] {
  const cover = page.cover!;
  const name = (id: string) => read.content.files.find((f) => f.id === id)?.name;
  const ref = cover.ref?.kind === 'file' && name(cover.ref.file) !== undefined ? { kind: 'file' as const, file: ASSETS + name(cover.ref.file)! } : cover.ref;
  return ref === undefined ? { ...cover } : { ...cover, ref };
}
