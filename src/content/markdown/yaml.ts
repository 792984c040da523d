import yaml from 'js-yaml';

/**
 * YAML as GitBook's Git Sync writes it: js-yaml's `dump` with its defaults (long strings folded
 * as `>-` at 80 columns, quotes only where needed). The same emitter gives the same bytes for
 * the same data, which is what makes writing canonical. The one YAML reader and writer of both
 * halves (the batch endpoint's front matter, the workspace's page files and config files).
 */
export function dumpYaml(data: unknown, fold = true): string {
  // Config files (`.gitbook.yaml`) keep one entry per line, as people and GitBook write them.
  return fold ? yaml.dump(data) : yaml.dump(data, { lineWidth: -1 });
}

export type YamlResult = { ok: true; value: unknown } | { ok: false; line?: number; reason: string };

/** Parses YAML; an error carries its 0-based line in `text` when js-yaml knows it. */
export function loadYaml(text: string): YamlResult {
  try {
    // The core schema keeps dates and the like as strings, so they are written back unchanged.
    return { ok: true, value: yaml.load(text, { schema: yaml.CORE_SCHEMA }) };
  } catch (error) {
    if (error instanceof yaml.YAMLException) {
      const reason = error.reason || error.message.split('\n')[0]!;
      return error.mark ? { ok: false, line: error.mark.line, reason } : { ok: false, reason };
    }
    throw error;
  }
}

export function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

/** Equal YAML values, mappings compared whatever their key order. */
export function sameYaml(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((item, i) => sameYaml(item, b[i]));
  if (isMapping(a) && isMapping(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((key) => key in b && sameYaml(a[key], b[key]));
  }
  return false;
}
