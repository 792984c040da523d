import { BaseError } from '../model/index.js';

/** Stable codes of the workspace layer's errors (bad folders are problems, not errors). */
export const WORKSPACE_ERROR_CODES = [
  /** A file to write would land outside the workspace folder (`..`, an absolute path). */
  'path-outside-folder',
] as const;

export type WorkspaceErrorCode = (typeof WORKSPACE_ERROR_CODES)[number];

/** An operation on a folder on disk that cannot be done; `code` is stable, the message says where. */
export class WorkspaceError extends BaseError<WorkspaceErrorCode> {
  constructor(code: WorkspaceErrorCode, message: string) {
    super(code, message);
  }
}
