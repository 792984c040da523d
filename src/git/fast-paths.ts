/**
 * Whether the git layer may take its own fast paths (the status reader over the index, the
 * commit at the cost of the change) before isomorphic-git's. `DOCSYNC_GIT_FAST_PATHS=off` turns
 * them off, so that everything goes through isomorphic-git: the test suite runs both ways, and a
 * user who meets a fast-path bug has a way around it. Read on every call, so a test may set it.
 */
export function fastPathsEnabled(): boolean {
  return process.env.DOCSYNC_GIT_FAST_PATHS !== 'off';
}
