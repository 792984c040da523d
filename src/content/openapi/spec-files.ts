import { loadYaml } from '../markdown/yaml.js';
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

/** Most files one spec read from a folder may have (the entry and the files its `$ref`s name). */
const MAX_LOCAL_FILES = 100;

/**
 * A spec from files at hand (`docsync preview`: a `{% openapi src="./spec.yaml" %}` naming a
 * file of the folder): the entry and every file its `$ref`s name, read through `read` (paths
 * relative to the entry's folder, `..` kept) and parsed as JSON or YAML. Undefined when the
 * entry is missing or is no OpenAPI or Swagger document; a `$ref` to a missing or unparsable
 * file stays unresolved, as in a processed version. Remote `$ref`s (with a scheme) are not read.
 */
export async function localSpecFiles(
  entryPath: string,
  read: (path: string) => Promise<string | undefined>,
): Promise<OpenApiFiles | undefined> {
  const entry = entryPath.replace(/^.*\//, '');
  const files: Record<string, unknown> = {};
  const queue = [entry];
  while (queue.length > 0 && Object.keys(files).length < MAX_LOCAL_FILES) {
    const path = queue.shift()!;
    if (Object.hasOwn(files, path)) continue;
    const text = await read(path);
    const parsed = text === undefined ? undefined : loadYaml(text);
    if (!parsed?.ok) {
      if (path === entry) return undefined;
      continue;
    }
    files[path] = parsed.value;
    for (const ref of refsOf(parsed.value)) {
      const filePart = ref.split('#')[0]!;
      if (filePart === '' || /^[a-z][a-z0-9+.-]*:/i.test(filePart)) continue;
      queue.push(normalize(`${dirOf(path)}/${filePart}`));
    }
  }
  const doc = files[entry];
  if (!isObject(doc) || (typeof doc.openapi !== 'string' && typeof doc.swagger !== 'string')) return undefined;
  return { entry, files };
}

function refsOf(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) refsOf(item, out);
  else if (isObject(value)) {
    if (typeof value.$ref === 'string') out.push(value.$ref);
    for (const v of Object.values(value)) refsOf(v, out);
  }
  return out;
}
