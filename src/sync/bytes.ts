/** Two files' bytes are the same (both absent counts as the same). */
export function sameBytes(a: Uint8Array | undefined, b: Uint8Array | undefined): boolean {
  if (a === b) return true;
  if (!a || !b || a.length !== b.length) return false;
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
}

/** A line git's (and pull's) conflict markers start: `<<<<<<< `, `=======`, `>>>>>>> `. */
const CONFLICT_MARKER = /^(?:<{7}|>{7})(?: |$)|^={7}$/m;
const decoder = new TextDecoder();

/** The text still holds conflict markers: a file like that is never sent. */
export const hasConflictMarkers = (bytes: Uint8Array | string): boolean =>
  CONFLICT_MARKER.test(typeof bytes === 'string' ? bytes : decoder.decode(bytes));
