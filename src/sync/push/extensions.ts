import type { ContentChange } from '../../model/index.js';
import { GITBOOK_YAML, renderGitbookYaml, type WorkspaceContent } from '../../workspace/index.js';
import { includeChanges } from './plan/includes.js';
import type { PushPlan } from './plan/plan.js';
import type { SkippedFile } from './read.js';

/**
 * What a plan may send depends on the server: our server offers extensions of the published
 * batch (it names them in `x-docsync-extensions`), the hosted API does not. This adds what the
 * extensions make possible (space variables, deleting files, reusable contents) and takes out,
 * with the reason, what the server cannot take (group and link pages, link titles, replacing a
 * file's bytes, reusable contents).
 */
export interface AdaptedPlan {
  changes: ContentChange[];
  skipped: SkippedFile[];
  undeletableFiles: string[];
  /** Folder files (`.gitbook.yaml`, unlisted `.md` files) a server without `git-files` cannot keep: they stay in the folder, said once. */
  keptHere: SkippedFile[];
}

/** The folder files a content holds as written: `.gitbook.yaml` (as kept, or as its settings give it) and unlisted `.md` files. */
function folderFiles(content: WorkspaceContent): Map<string, string> {
  const files = new Map((content.gitFiles ?? []).map((file) => [file.path, file.text]));
  const config = files.get(GITBOOK_YAML) ?? renderGitbookYaml(content.settings);
  if (config === undefined) files.delete(GITBOOK_YAML);
  else files.set(GITBOOK_YAML, config);
  return files;
}

/**
 * `set_git_file` for each folder file local added, changed or removed (`text: null`), in path
 * order. A folder without `.gitbook.yaml` on a platform that stores none (what it has is only
 * rendered from its settings, and means the same defaults) removes nothing.
 */
export function gitFileChanges(remote: WorkspaceContent, local: WorkspaceContent): ContentChange[] {
  const [before, after] = [folderFiles(remote), folderFiles(local)];
  const storedConfig = (remote.gitFiles ?? []).some((file) => file.path === GITBOOK_YAML);
  return [...new Set([...before.keys(), ...after.keys()])]
    .sort()
    .filter((path) => before.get(path) !== after.get(path))
    .filter((path) => path !== GITBOOK_YAML || after.has(path) || storedConfig)
    .map((path) => ({ operation: 'set_git_file', path, text: after.get(path) ?? null }));
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? {}) === JSON.stringify(b ?? {});

const INCLUDE_EXTENSION = {
  insert_reusable_content: 'insert-reusable-content',
  update_reusable_content: 'update-reusable-content',
  delete_reusable_content: 'delete-reusable-content',
} as const;
const INCLUDE_VERB = { insert_reusable_content: 'add', update_reusable_content: 'change', delete_reusable_content: 'delete' } as const;

/**
 * A change without the page's file (`gitPath`), for a server that does not store it: nothing is
 * lost, as the folder keeps each page where it is (snapshot.ts `places`). An update that set
 * only the file is left out (undefined).
 */
function without(field: 'gitPath' | 'frontMatter' | 'titleHeading', change: ContentChange): ContentChange | undefined {
  if ((change.operation !== 'insert_page' && change.operation !== 'update_page') || !(field in change)) return change;
  const { [field]: _left, ...rest } = change;
  return change.operation === 'update_page' && Object.keys(rest).length <= 2 ? undefined : (rest as ContentChange);
}

export function adaptPlan(
  plan: PushPlan,
  remote: WorkspaceContent,
  local: WorkspaceContent,
  extensions: ReadonlySet<string>,
  paths: { summary: string; vars: string; asset: (name: string) => string; include: (name: string) => string },
): AdaptedPlan {
  const skipped: SkippedFile[] = [];
  const changes: ContentChange[] = [];
  const remoteFiles = new Map(remote.files.map((f) => [f.name, f]));
  // A page the server cannot take leaves out what the plan puts under it.
  const localIdOfRef = new Map([...plan.refs].map(([id, ref]) => [ref, id]));
  const left = new Set<string>();
  const leave = (change: ContentChange) => {
    if (change.operation === 'insert_page' && change.ref !== undefined) left.add(localIdOfRef.get(change.ref) ?? change.ref);
  };
  for (const planned of plan.changes) {
    // Where the file is and its front matter as written: dropped quietly, the page goes anyway.
    const kept = extensions.has('git-path') ? planned : without('gitPath', planned);
    const fronted = kept === undefined || extensions.has('front-matter') ? kept : without('frontMatter', kept);
    const change = fronted === undefined || extensions.has('title-heading') ? fronted : without('titleHeading', fronted);
    if (change === undefined) continue;
    if (
      (change.operation === 'insert_page' || change.operation === 'update_page') &&
      typeof change.into === 'string' &&
      left.has(change.into)
    ) {
      leave(change);
      skipped.push({
        path: paths.summary,
        reason: `${change.operation === 'insert_page' ? `page "${change.title ?? ''}"` : `page ${change.page}`} goes under a page this server cannot take; it was not sent`,
      });
      continue;
    }
    if (change.operation === 'insert_page' && change.type === 'computed' && !extensions.has('computed-pages')) {
      leave(change);
      skipped.push({
        path: paths.summary,
        reason: `this server cannot create computed pages (the OpenAPI reference block "${change.title ?? ''}") through the API; add it in the app`,
      });
      continue;
    }
    if (change.operation === 'update_page' && 'computed' in change && !extensions.has('computed-pages')) {
      skipped.push({
        path: paths.summary,
        reason: `this server cannot change a computed page's source (the OpenAPI reference block of page ${change.page}) through the API; change it in the app`,
      });
      const { computed: _computed, ...rest } = change as ContentChange & { computed?: unknown };
      if (Object.keys(rest).length > 2) changes.push(rest as ContentChange);
      continue;
    }
    if (
      change.operation === 'insert_page' &&
      'type' in change &&
      change.type !== undefined &&
      change.type !== 'document' &&
      change.type !== 'computed' &&
      !extensions.has('page-types')
    ) {
      leave(change);
      skipped.push({
        path: paths.summary,
        reason: `this server cannot create ${change.type} pages through the API ("${change.title ?? ''}"); create it in the app`,
      });
      continue;
    }
    if (change.operation === 'update_page' && 'href' in change && !extensions.has('page-types')) {
      skipped.push({ path: paths.summary, reason: `this server cannot change where a link page points through the API (${change.page})` });
      const { href: _href, ...rest } = change as ContentChange & { href?: string };
      if (Object.keys(rest).length > 2) changes.push(rest as ContentChange);
      continue;
    }
    if (
      (change.operation === 'insert_page' || change.operation === 'update_page') &&
      'linkTitle' in change &&
      !extensions.has('link-title')
    ) {
      const { linkTitle, ...rest } = change as ContentChange & { linkTitle?: string };
      const page = change.operation === 'insert_page' ? `"${change.title ?? ''}"` : change.page;
      // Never dropped in silence: the label stays in the writer's SUMMARY.md and the push says it was not sent.
      skipped.push({
        path: paths.summary,
        reason: `this server cannot set a link title, the quoted label of a SUMMARY.md entry ("${linkTitle ?? ''}" for page ${page}); set it in the app`,
      });
      if (change.operation === 'insert_page' || Object.keys(rest).length > 2) changes.push(rest as ContentChange);
      continue;
    }
    if (change.operation === 'insert_files' && !extensions.has('replace-files')) {
      const replacing = change.files.filter((file) => remoteFiles.has(file.name));
      for (const file of replacing)
        skipped.push({
          path: paths.asset(file.name),
          reason: 'this server would add a second file of that name instead of replacing it; replace it in the app',
        });
      const files = change.files.filter((file) => !remoteFiles.has(file.name));
      if (files.length > 0) changes.push({ ...change, files });
      continue;
    }
    changes.push(change);
  }

  let undeletableFiles = plan.undeletableFiles;
  if (extensions.has('delete-file')) {
    for (const name of plan.undeletableFiles) {
      const file = remoteFiles.get(name);
      if (file) changes.push({ operation: 'delete_file', file: file.id });
    }
    undeletableFiles = [];
  }
  if (!same(remote.variables, local.variables)) {
    if (extensions.has('set-variables')) changes.push({ operation: 'set_variables', variables: local.variables });
    else skipped.push({ path: paths.vars, reason: 'this server has no operation for space variables; set them in the app' });
  }
  for (const { change, name } of includeChanges(remote.reusableContents, local.reusableContents)) {
    if (name.includes('/')) {
      skipped.push({
        path: paths.include(name),
        reason: 'a reusable content is a file directly in .gitbook/includes/; move it there to send it',
      });
    } else if (!extensions.has(INCLUDE_EXTENSION[change.operation])) {
      skipped.push({
        path: paths.include(name),
        reason: `this server has no operation to ${INCLUDE_VERB[change.operation]} reusable content; do it in the app`,
      });
    } else {
      changes.push(change);
    }
  }
  const keptHere: SkippedFile[] = [];
  for (const change of gitFileChanges(remote, local)) {
    if (extensions.has('git-files')) changes.push(change);
    else if (change.operation === 'set_git_file' && change.path === GITBOOK_YAML)
      keptHere.push({
        path: GITBOOK_YAML,
        reason:
          'this server has no place for the folder settings file; it stays here as written and is not sent (a fresh clone writes `root: ./`)',
      });
  }
  return { changes, skipped, undeletableFiles, keptHere };
}
