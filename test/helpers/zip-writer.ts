/**
 * Writes zip archives that lie, as an attacker would: each central-directory entry names its
 * own local header offset, method and declared size, so entries can share one body or declare
 * sizes their data does not have. CRCs are left 0 (the server does not rely on them).
 */
export interface CraftedEntry {
  name: string;
  /** Index into `bodies`: entries may share one. */
  body: number;
  method: 0 | 8;
  /** Declared uncompressed size. */
  size: number;
}

export function craftZip(bodies: Uint8Array[], entries: CraftedEntry[]): Uint8Array {
  const parts: Uint8Array[] = [];
  let offset = 0;
  const push = (part: Uint8Array) => {
    parts.push(part);
    offset += part.length;
  };
  const header = (length: number) => {
    const bytes = new Uint8Array(length);
    return { bytes, view: new DataView(bytes.buffer) };
  };
  const encoder = new TextEncoder();
  // One local header and body per body, named after the first entry using it.
  const locals: number[] = [];
  bodies.forEach((body, i) => {
    const entry = entries.find((e) => e.body === i)!;
    const name = encoder.encode(entry.name);
    const { bytes, view } = header(30);
    view.setUint32(0, 0x04034b50, true);
    view.setUint16(4, 20, true);
    view.setUint16(6, 0x800, true);
    view.setUint16(8, entry.method, true);
    view.setUint32(18, body.length, true);
    view.setUint32(22, entry.size, true);
    view.setUint16(26, name.length, true);
    locals.push(offset);
    push(bytes);
    push(name);
    push(body);
  });
  const directory = offset;
  for (const entry of entries) {
    const name = encoder.encode(entry.name);
    const { bytes, view } = header(46);
    view.setUint32(0, 0x02014b50, true);
    view.setUint16(4, 20, true);
    view.setUint16(6, 20, true);
    view.setUint16(8, 0x800, true);
    view.setUint16(10, entry.method, true);
    view.setUint32(20, bodies[entry.body]!.length, true);
    view.setUint32(24, entry.size, true);
    view.setUint16(28, name.length, true);
    view.setUint32(42, locals[entry.body]!, true);
    push(bytes);
    push(name);
  }
  const { bytes, view } = header(22);
  view.setUint32(0, 0x06054b50, true);
  view.setUint16(8, entries.length, true);
  view.setUint16(10, entries.length, true);
  view.setUint32(12, offset - directory, true);
  view.setUint32(16, directory, true);
  push(bytes);
  const out = new Uint8Array(offset);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
