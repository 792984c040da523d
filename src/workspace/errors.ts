/** Stable codes of the workspace layer's errors (bad folders are problems, not errors). */
export type WorkspaceErrorCode = 'path_outside_folder';

/** An operation on a folder on disk that cannot be done; `code` is stable, the message says where. */
export class WorkspaceError extends Error {
  readonly code: WorkspaceErrorCode;

  constructor(code: WorkspaceErrorCode, message: string) {
    super(message);
    this.name = 'WorkspaceError';
    this.code = code;
  }
}
