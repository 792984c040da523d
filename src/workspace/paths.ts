/** Folder paths: `/`-separated, relative to the folder root, no `.` or `..` parts. */
import { dirOf, joinPath } from '../content/index.js';

export const ASSETS = '.gitbook/assets/';
export const INCLUDES = '.gitbook/includes/';

export { dirOf };

/** `to` as a link written in the file `from` (`../.gitbook/assets/a.png`). */
export function relativePath(from: string, to: string): string {
  const fromParts = dirOf(from)
    .split('/')
    .filter((p) => p !== '');
  const toParts = to.split('/');
  let same = 0;
  while (same < fromParts.length && same < toParts.length - 1 && fromParts[same] === toParts[same]) same += 1;
  return [...fromParts.slice(same).map(() => '..'), ...toParts.slice(same)].join('/');
}

/** A link target written in the file `from`, as a folder path; undefined when it leaves the folder. */
export function resolvePath(from: string, target: string): string | undefined {
  return joinPath(target.startsWith('/') ? '' : dirOf(from), target);
}

/** Percent-decoding that keeps text which is not valid percent-encoding as written. */
export function decodePath(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** A URL (any scheme) rather than a path. */
export const isUrl = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//');
