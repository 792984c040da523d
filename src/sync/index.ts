export { clone, DOCSYNC_AUTHOR, type CloneOptions, type CloneResult } from './clone.js';
export { pull, type BranchPull } from './pull.js';
export { status, type BranchStatus } from './status.js';
export { readState, writeState, stateDir, type WorkspaceState, type BranchState, type Binding } from './state.js';
export { loadCredentials, saveCredentials, credentialsPath, type Credentials } from './credentials.js';
export { fetchContent, toWorkspacePage, type RemoteContent } from './remote-content.js';
export { mergeFiles, type FileMerge } from './merge-files.js';
export { changeRequestBranch } from './branch-names.js';
