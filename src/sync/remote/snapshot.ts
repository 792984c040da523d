import { writeFolder, type WorkspaceIndex, type WorkspaceProblem } from '../../workspace/index.js';
import type { BranchState } from '../state/state.js';
import type { RemoteContent } from './content.js';

/** A remote revision as the files of a folder, with the ids the folder does not carry. */
export interface Snapshot {
  revision: string;
  files: Map<string, Uint8Array>;
  index: BranchState['index'];
  problems: WorkspaceProblem[];
}

const encoder = new TextEncoder();

export function snapshotOf(remote: RemoteContent): Snapshot {
  const written = writeFolder(remote.content);
  const files = new Map<string, Uint8Array>();
  for (const [path, data] of written.files) files.set(path, typeof data === 'string' ? encoder.encode(data) : data);
  return { revision: remote.revision, files, index: plainIndex(written.index), problems: written.problems };
}

export function plainIndex(index: WorkspaceIndex): BranchState['index'] {
  return { pages: Object.fromEntries(index.pages), files: Object.fromEntries(index.files), includes: Object.fromEntries(index.includes) };
}
