/** `a.md, b.md and 3 more`: a list of paths short enough for a commit subject or a line of output. */
export const fileList = (paths: readonly string[], max = 5): string =>
  paths.length <= max ? paths.join(', ') : `${paths.slice(0, max).join(', ')} and ${paths.length - max} more`;
