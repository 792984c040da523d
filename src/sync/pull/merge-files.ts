import { mergeText } from '../../content/index.js';
import { sameBytes } from '../bytes.js';

/** A folder as a map of path to bytes (text files are UTF-8). */
export type FileMap = ReadonlyMap<string, Uint8Array>;

export interface FileMerge {
  files: Map<string, Uint8Array>;
  /** Paths left with conflict markers (text) or with our version kept (binary, delete/edit). */
  conflicts: string[];
}

const decoder = new TextDecoder('utf-8', { fatal: true });
const encoder = new TextEncoder();

function asText(bytes: Uint8Array | undefined): string | undefined {
  if (bytes === undefined) return '';
  try {
    return decoder.decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * Three-way merge of two folders against their common base, file by file (pull: ours = the
 * local branch, theirs = the remote content). A file changed on one side takes that side; text
 * changed on both is merged line by line, with git-style markers where lines conflict. An edit
 * against a delete keeps the edited file, and binary files changed on both sides keep ours:
 * both are conflicts, so nothing local is lost and the caller can stop the file from being
 * pushed. Pure: no I/O.
 */
export function mergeFiles(base: FileMap, ours: FileMap, theirs: FileMap, labels = { ours: 'local', theirs: 'remote' }): FileMerge {
  const files = new Map<string, Uint8Array>();
  const conflicts: string[] = [];
  const paths = [...new Set([...base.keys(), ...ours.keys(), ...theirs.keys()])].sort();
  for (const path of paths) {
    const b = base.get(path);
    const o = ours.get(path);
    const t = theirs.get(path);
    if (sameBytes(o, t) || sameBytes(t, b)) {
      if (o) files.set(path, o);
      continue;
    }
    if (sameBytes(o, b)) {
      if (t) files.set(path, t);
      continue;
    }
    // Both sides changed the file, differently.
    if (!o || !t) {
      files.set(path, (o ?? t)!);
      conflicts.push(path);
      continue;
    }
    const [bt, ot, tt] = [asText(b), asText(o), asText(t)];
    if (bt === undefined || ot === undefined || tt === undefined) {
      files.set(path, o);
      conflicts.push(path);
      continue;
    }
    const merged = mergeText(bt, ot, tt, labels);
    files.set(path, encoder.encode(merged.text));
    if (merged.kind === 'conflict') conflicts.push(path);
  }
  return { files, conflicts };
}
