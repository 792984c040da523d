export { startDaemon, type Daemon, type DaemonOptions } from './daemon.js';
export type { DaemonActivity, DaemonEvent } from './events.js';
export { acquireDaemonLock, DaemonLockedError, isAlive, lockPath, readDaemonLock, type DaemonLock, type LockHolder } from './lock.js';
export { readDaemonStatus, statusPath, type DaemonStatus } from './status-file.js';
export { backoffDelay, DEFAULT_BACKOFF, type BackoffPolicy } from './backoff.js';
export { fileList } from './file-list.js';
export { syncLockPath, withWorkspaceLock } from './workspace-lock.js';
export { DAEMON_ERROR_CODES, WorkspaceBusyError, type DaemonErrorCode } from './lock.js';
export { watchMirror, type MirrorWatch, type MirrorWatchEvent, type MirrorWatchOptions } from './mirror-watch.js';
