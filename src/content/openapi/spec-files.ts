/**
 * A processed OpenAPI spec as a version stores it (the version content's `filesystem`): each file
 * parsed, by path relative to the entry's folder. `$ref`s are kept as written and resolved here,
 * lazily, so the data stays plain JSON (a dereferenced spec may be circular).
 */
export interface OpenApiFiles {
  entry: string;
  files: Record<string, unknown>;
}

/** A value of the spec with the file it was read from (its `$ref`s are relative to that file). */
export interface Located {
  value: unknown;
  file: string;
  /** The name of the component or file a `$ref` led to (`Pet`), when one did. */
  name?: string;
}

export type Json = Record<string, unknown>;
export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function normalize(path: string): string {
  const out: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..' && out.length > 0 && out[out.length - 1] !== '..') out.pop();
    else out.push(part);
  }
  return out.join('/');
}

const dirOf = (file: string) => (file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : '');

/** Follows one `$ref` from `file`; undefined when it names nothing the version holds. */
export function followRef(spec: OpenApiFiles, file: string, ref: string): Located | undefined {
  const hash = ref.indexOf('#');
  const filePart = hash < 0 ? ref : ref.slice(0, hash);
  const pointer = hash < 0 ? '' : ref.slice(hash + 1);
  const target = filePart === '' ? file : normalize(`${dirOf(file)}/${filePart}`);
  if (!Object.hasOwn(spec.files, target)) return undefined;
  let value: unknown = spec.files[target];
  const parts = pointer
    .split('/')
    .slice(1)
    .map((p) => decodeURIComponent(p).replaceAll('~1', '/').replaceAll('~0', '~'));
  for (const part of parts) {
    if (Array.isArray(value)) value = value[Number(part)];
    else if (isObject(value) && Object.hasOwn(value, part)) value = value[part];
    else return undefined;
  }
  const name = parts.length > 0 ? parts[parts.length - 1] : target.replace(/^.*\//, '').replace(/\.[a-z]+$/i, '');
  return { value, file: target, ...(name !== undefined ? { name } : {}) };
}

/** `value` with its `$ref` chain followed (at most 20 hops); a broken ref stays as the ref object. */
export function resolve(spec: OpenApiFiles, at: Located): Located {
  let current = at;
  for (let hop = 0; hop < 20; hop += 1) {
    const v = current.value;
    if (!isObject(v) || typeof v.$ref !== 'string') return current;
    const next = followRef(spec, current.file, v.$ref);
    if (!next) return current;
    // `Order: {$ref: order.yaml}`: the component's name, not its file's, names what it holds.
    current = current.name !== undefined && !v.$ref.includes('#') ? { ...next, name: current.name } : next;
  }
  return current;
}

/** The entry document. */
export function entryOf(spec: OpenApiFiles): Located {
  return { value: spec.files[spec.entry], file: spec.entry };
}

/** `object[key]` read from a located object, resolved. */
export function child(spec: OpenApiFiles, at: Located, key: string | number): Located | undefined {
  const v = at.value;
  const raw = Array.isArray(v) ? v[Number(key)] : isObject(v) ? v[key] : undefined;
  if (raw === undefined) return undefined;
  return resolve(spec, { value: raw, file: at.file });
}

export const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
