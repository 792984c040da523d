import { MAX_FILE_NAME } from './content-change.js';

// C0 controls, DEL, C1 controls; and the bidirectional controls that make a name read as
// another (U+202E turns `gpj.exe` around): LRM, RLM, ALM, embeddings, overrides and isolates.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/**
 * Why `name` cannot name a file (`.gitbook/assets/<name>` in the Git Sync layout), or undefined.
 * A name is a relative `/`-separated path with no empty, `.` or `..` segment, no backslash,
 * no control or bidirectional-control character, and at most 256 characters (`maxLength`).
 */
export function fileNameProblem(name: string, maxLength = MAX_FILE_NAME): string | undefined {
  if (name.length === 0) return 'is empty';
  if (name.length > maxLength) return `is longer than ${maxLength} characters`;
  if (CONTROL.test(name)) return 'holds a control character';
  if (BIDI.test(name)) return 'holds a bidirectional control character';
  if (name.includes('\\')) return 'holds a backslash (use `/` between folders)';
  if (name.startsWith('/') || /^[a-z]:/i.test(name)) return 'is an absolute path';
  const segments = name.split('/');
  if (segments.some((s) => s === '..')) return 'climbs out of the folder with `..`';
  if (segments.some((s) => s === '' || s === '.')) return 'has an empty or `.` path segment';
  return undefined;
}
