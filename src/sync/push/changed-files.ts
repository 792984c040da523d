import { diffTrees, isGitError, readBlob, readFileAt, type TreeChange } from '../../git/index.js';
import { GITBOOK_YAML, parseGitbookYaml, parseSummary, rootPrefix, structurePath, type SummaryItem } from '../../workspace/index.js';

/** Two sides of a push as files, possibly partial. */
export interface ChangedFiles {
  base: Map<string, Uint8Array>;
  local: Map<string, Uint8Array>;
  /** For a partial read: the files that exist on both sides alike and were not read. */
  unloaded: ((path: string) => boolean) | undefined;
}

const decoder = new TextDecoder();

async function readSome(dir: string, commit: string, paths: Iterable<string>): Promise<Map<string, Uint8Array>> {
  const files = new Map<string, Uint8Array>();
  for (const path of new Set(paths)) {
    try {
      files.set(path, await readFileAt(dir, commit, path));
    } catch (error) {
      if (!isGitError(error, 'not-found')) throw error;
    }
  }
  return files;
}

/** The folder's own files at a commit: `.gitbook.yaml`, SUMMARY.md and the space variables. */
async function folderFiles(dir: string, commit: string): Promise<string[]> {
  const config = (await readSome(dir, commit, [GITBOOK_YAML])).get(GITBOOK_YAML);
  const settings = config === undefined ? {} : parseGitbookYaml(decoder.decode(config)).settings;
  const prefix = rootPrefix(settings.root);
  return [GITBOOK_YAML, prefix + structurePath(settings.structure?.summary, 'SUMMARY.md'), `${prefix}.gitbook/vars.yaml`];
}

/** Where a folder keeps SUMMARY.md, its variables, its assets and its includes (by its `.gitbook.yaml`). */
export function folderPaths(files: ReadonlyMap<string, Uint8Array>): {
  summary: string;
  vars: string;
  asset: (name: string) => string;
  include: (name: string) => string;
} {
  const config = files.get(GITBOOK_YAML);
  const settings = config === undefined ? {} : parseGitbookYaml(decoder.decode(config)).settings;
  const prefix = rootPrefix(settings.root);
  return {
    summary: prefix + structurePath(settings.structure?.summary, 'SUMMARY.md'),
    vars: `${prefix}.gitbook/vars.yaml`,
    asset: (name) => `${prefix}.gitbook/assets/${name}`,
    include: (name) => `${prefix}.gitbook/includes/${name}`,
  };
}

function flatTargets(items: readonly SummaryItem[], into: string[] = []): string[] {
  for (const item of items) {
    into.push(item.target);
    flatTargets(item.items, into);
  }
  return into;
}

/** The files a SUMMARY.md lists (paths from the folder's root, decoded; no URLs). */
function listedFiles(summary: Uint8Array | undefined, summaryPath: string): string[] {
  if (summary === undefined) return [];
  const folder = summaryPath.slice(0, summaryPath.lastIndexOf('/') + 1);
  return flatTargets(parseSummary(decoder.decode(summary)).summary.parts.flatMap((part) => part.items)).flatMap((target) => {
    if (target === '' || /^[a-z][a-z0-9+.-]*:/i.test(target)) return [];
    try {
      return [folder + decodeURI(target.split('#')[0]!)];
    } catch {
      return [folder + target];
    }
  });
}

/**
 * The files of `base` and `head` a push has to read: the ones that differ between them (both
 * paths of a rename) and the folder's own files. Everything else is the same on both sides, so
 * it is left unread and both sides read it as an empty page in its place (`readFolder`'s
 * `unloaded`): what push reads grows with the change, not with the space.
 */
export async function readChangedFiles(dir: string, base: string, head: string, changes?: readonly TreeChange[]): Promise<ChangedFiles> {
  const diff = changes ?? (await diffTrees(dir, base, head));
  const changed = new Set(diff.flatMap((c) => (c.status === 'renamed' ? [c.from, c.to] : [c.path])));
  const baseFiles = new Map<string, Uint8Array>();
  const localFiles = new Map<string, Uint8Array>();
  // Changed files by the oids the diff already found: no tree walk per file.
  for (const change of diff) {
    if (change.status !== 'added')
      baseFiles.set(change.status === 'renamed' ? change.from : change.path, await readBlob(dir, change.oldOid));
    if (change.status !== 'deleted') localFiles.set(change.path, await readBlob(dir, change.newOid));
  }
  const own = new Set([...(await folderFiles(dir, base)), ...(await folderFiles(dir, head))]);
  // A folder file the branch did not change is the same on both sides: read it once.
  for (const [path, bytes] of await readSome(
    dir,
    head,
    [...own].filter((p) => !changed.has(p)),
  )) {
    baseFiles.set(path, bytes);
    localFiles.set(path, bytes);
  }
  // A page SUMMARY.md lists now and did not before, whose file the diff does not add, may be a
  // typo: only a file the head really has reads as unchanged; a missing one is reported. A
  // SUMMARY.md the branch did not change lists and delists nothing: it is not parsed (5,000 lines
  // in a 5,000-page space, on every push).
  const missing = new Set<string>();
  const { summary } = folderPaths(localFiles);
  const sameSummary = baseFiles.get(summary) === localFiles.get(summary);
  const listedNow = sameSummary ? [] : listedFiles(localFiles.get(summary), summary);
  const listedBefore = new Set(sameSummary ? [] : listedFiles(baseFiles.get(summary), summary));
  const candidates = listedNow.filter((path) => !listedBefore.has(path) && !changed.has(path));
  // A file SUMMARY.md stopped or started listing, unchanged itself, changes kind (a page, or a
  // file the platform keeps as written): both sides read it, so the push moves it from one to the other.
  const nowListed = new Set(listedNow);
  const delisted = [...listedBefore].filter((path) => !nowListed.has(path) && !changed.has(path));
  const present = await readSome(dir, head, [...candidates, ...delisted]);
  for (const path of candidates) if (!present.has(path)) missing.add(path);
  for (const [path, bytes] of present) {
    baseFiles.set(path, bytes);
    localFiles.set(path, bytes);
  }
  return {
    base: baseFiles,
    local: localFiles,
    unloaded: (path) => !changed.has(path) && !own.has(path) && !missing.has(path) && !present.has(path),
  };
}
