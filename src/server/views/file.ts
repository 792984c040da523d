import { ASSETS_DIR, type RevisionFile, type TreeFile } from '../../model/index.js';

export interface FileViewContext {
  /** URL on this server that answers the file's bytes. */
  downloadURL: (file: TreeFile) => string;
  /** False omits `git` (the published `metadata=false`). */
  metadata: boolean;
  /** Git blob id of the file's bytes, by the bytes' sha256. */
  gitOid: (sha256: string) => string | undefined;
}

/** Git Sync keeps files under `.gitbook/assets/` with their original names. */
export function fileGitPath(file: TreeFile): string {
  return `${ASSETS_DIR}/${file.name}`;
}

export function fileView(file: TreeFile, ctx: FileViewContext): RevisionFile {
  const oid = ctx.metadata ? ctx.gitOid(file.blob) : undefined;
  return {
    id: file.id,
    name: file.name,
    contentType: file.contentType,
    downloadURL: ctx.downloadURL(file),
    size: file.size,
    ...(file.dimensions ? { dimensions: { width: file.dimensions.width, height: file.dimensions.height } } : {}),
    ...(oid !== undefined ? { git: { oid, path: fileGitPath(file) } } : {}),
  };
}
