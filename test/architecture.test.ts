import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The layer table of shared/STYLE.md section 2 ("Import rule"), checked against every import in
 * src/ rather than trusted to review, as fastify checks its error catalogue against its docs.
 */
const LAYERS = ['model', 'content', 'render', 'server', 'client', 'workspace', 'git', 'sync', 'daemon', 'preview', 'cli'] as const;
type Layer = (typeof LAYERS)[number];

const MAY_IMPORT: Record<Layer, readonly Layer[]> = {
  model: [],
  content: ['model'],
  render: ['model', 'content'],
  server: ['model', 'content', 'render'],
  client: ['model'],
  workspace: ['model', 'content'],
  git: ['model'],
  sync: ['model', 'content', 'client', 'workspace', 'git'],
  daemon: ['model', 'content', 'client', 'workspace', 'git', 'sync'],
  preview: ['model', 'content', 'render', 'workspace', 'git'],
  cli: ['model', 'content', 'render', 'server', 'client', 'workspace', 'git', 'sync', 'daemon', 'preview'],
};

/** Outside libraries and the only layers that may import them; anything else must be added here. */
const LIBRARY_LAYERS: [RegExp, readonly Layer[]][] = [
  [/^@sinclair\/typebox(\/|$)/, ['model', 'server']],
  [/^(fastify|@fastify\/.+|kysely|better-sqlite3|pg|ajv|ajv-formats|ipaddr\.js|fflate|pdfkit|piscina)(\/|$)/, ['server']],
  [/^commander(\/|$)/, ['cli']],
  [/^p-queue(\/|$)/, ['client']],
  // server: the fetch guard connects to the addresses it checked (server/fetch, DNS rebinding).
  [/^undici(\/|$)/, ['client', 'server']],
  [/^isomorphic-git(\/|$)/, ['git']],
  [/^chokidar(\/|$)/, ['daemon', 'preview']],
  // The preview's in-memory search over a folder's pages.
  [/^minisearch(\/|$)/, ['preview']],
  [/^ignore(\/|$)/, ['daemon']],
  // One YAML reader and writer for both halves (content/markdown/yaml.ts, front-matter.ts): the
  // batch endpoint's front matter, and through content the workspace's page files, .gitbook.yaml
  // and vars. No second YAML library, no second front matter reader (issue 14).
  [/^js-yaml(\/|$)/, ['content']],
  [/^(gray-matter|yaml)(\/|$)/, []],
  // JWTs: the visitor claims of ping, signed with each organization's key.
  [/^jose(\/|$)/, ['server']],
  // OpenAPI specs: parsing, $ref resolution and validation (server/openapi).
  [/^@apidevtools\/swagger-parser(\/|$)/, ['server']],
  // Language tags of translation settings.
  [/^bcp-47(\/|$)/, ['server']],
  // Line diffs of a change request's pages (server/web).
  [/^diff(\/|$)/, ['server']],
  // SAML 2.0 sign-in (server/sso).
  [/^@node-saml\/node-saml(\/|$)/, ['server']],
  [
    /^(unified|remark(-[a-z0-9-]+)?|rehype(-[a-z0-9-]+)?|hast(-[a-z0-9-]+)?|mdast(-[a-z0-9-]+)?|micromark(-[a-z0-9-]+)?|unist(-[a-z0-9-]+)?|vfile|node-diff3)(\/|$)/,
    ['content', 'render'],
  ],
];

/** Node modules that do I/O or read the clock's environment: not for the pure layers. */
const IMPURE_BUILTINS = /^(fs|fs\/promises|net|http|https|http2|child_process|os|dgram|dns|tls|worker_threads|cluster)$/;
/**
 * Pure code: no I/O and no clock or randomness, so it is tested exhaustively without setup. Whole
 * layers, and the pure folders inside layers that also do I/O (git's object and index formats,
 * the push planner). A pure folder imports only pure code.
 */
const PURE_FOLDERS: readonly string[] = [
  'model',
  'content',
  'render',
  'git/format',
  'sync/push/plan',
  'git/errors.ts',
  'sync/errors.ts',
  // The daemon's timing decisions: time and random draws come in with the events.
  'daemon/scheduler',
  'daemon/backoff.ts',
];
/** The clock and randomness, read directly: pure code is given them instead. */
const CLOCK_OR_RANDOM = /\bDate\.now\s*\(|\bnew Date\s*\(\s*\)|\bperformance\.now\s*\(|\bMath\.random\s*\(/;

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const srcDir = join(root, 'src');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
const builtins = new Set(builtinModules);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

interface Import {
  from: string;
  specifier: string;
  line: number;
  /** `import type` and `export type`: erased at build time. */
  typeOnly: boolean;
}

function importsOf(file: string): Import[] {
  const text = readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: Import[] = [];
  const add = (node: ts.Node, literal: ts.Expression, typeOnly: boolean) => {
    if (!ts.isStringLiteralLike(literal)) return;
    const line = source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
    found.push({ from: file, specifier: literal.text, line, typeOnly });
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node)) {
      add(node, node.moduleSpecifier, node.importClause?.isTypeOnly === true);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier) {
      add(node, node.moduleSpecifier, node.isTypeOnly);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0]) {
      add(node, node.arguments[0], false);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      add(node, node.argument.literal, true);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const files = sourceFiles(srcDir);
const imports = files.flatMap(importsOf);

const pureFolderOf = (file: string): string | undefined => {
  const rel = relative(srcDir, file).split(sep).join('/');
  return PURE_FOLDERS.find((folder) => rel === folder || rel.startsWith(`${folder}/`));
};
const layerOf = (file: string): Layer | undefined => {
  const first = relative(srcDir, file).split(sep)[0];
  return (LAYERS as readonly string[]).includes(first ?? '') ? (first as Layer) : undefined;
};
const where = (i: Import) => `${relative(root, i.from)}:${i.line} imports '${i.specifier}'`;
const isRelative = (specifier: string) => specifier.startsWith('./') || specifier.startsWith('../');
const packageName = (specifier: string) =>
  specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]!;

/** `../model/index.js` to the `.ts` file it names. */
function resolveRelative(i: Import): string {
  const target = resolve(dirname(i.from), i.specifier);
  return target.replace(/\.js$/, '.ts');
}

describe('architecture', () => {
  it('finds the source files and their imports', () => {
    expect(files.length).toBeGreaterThan(10);
    expect(imports.length).toBeGreaterThan(files.length);
    for (const file of files) expect(layerOf(file), relative(root, file)).toBeDefined();
  });

  it('imports only the layers each layer may import, and only through their index.ts', () => {
    const violations: string[] = [];
    for (const i of imports.filter((x) => isRelative(x.specifier))) {
      const fromLayer = layerOf(i.from)!;
      const target = resolveRelative(i);
      if (!existsSync(target)) {
        violations.push(`${where(i)}: no such file`);
        continue;
      }
      const toLayer = layerOf(target);
      if (toLayer === undefined) {
        violations.push(`${where(i)}: outside src/`);
      } else if (toLayer !== fromLayer) {
        if (!MAY_IMPORT[fromLayer].includes(toLayer)) violations.push(`${where(i)}: ${fromLayer} may not import ${toLayer}`);
        else if (target !== join(srcDir, toLayer, 'index.ts'))
          violations.push(`${where(i)}: import ${toLayer} through src/${toLayer}/index.ts`);
      }
    }
    expect(violations).toEqual([]);
  });

  it('keeps each outside library in its layer, and ships the ones it runs with', () => {
    const violations: string[] = [];
    for (const i of imports.filter((x) => !isRelative(x.specifier))) {
      const fromLayer = layerOf(i.from)!;
      const name = i.specifier.replace(/^node:/, '');
      if (i.specifier.startsWith('node:') || builtins.has(name)) {
        const pure = pureFolderOf(i.from);
        if (pure !== undefined && !i.typeOnly && IMPURE_BUILTINS.test(name)) violations.push(`${where(i)}: src/${pure} does no I/O`);
        continue;
      }
      const rule = LIBRARY_LAYERS.find(([pattern]) => pattern.test(i.specifier));
      if (!rule) violations.push(`${where(i)}: '${packageName(i.specifier)}' has no layer in the table of test/architecture.test.ts`);
      else if (!rule[1].includes(fromLayer))
        violations.push(`${where(i)}: '${packageName(i.specifier)}' lives only in ${rule[1].join(', ')}`);
      // A runtime import of a devDependency works in the repository and fails once installed.
      if (!i.typeOnly && pkg.dependencies?.[packageName(i.specifier)] === undefined) {
        violations.push(`${where(i)}: '${packageName(i.specifier)}' is not in package.json dependencies`);
      }
    }
    expect(violations).toEqual([]);
  });

  it('keeps the pure folders pure: no I/O through other code, no clock, no randomness', () => {
    const violations: string[] = [];
    for (const i of imports.filter((x) => isRelative(x.specifier) && !x.typeOnly)) {
      const pure = pureFolderOf(i.from);
      if (pure === undefined) continue;
      const target = resolveRelative(i);
      if (layerOf(target) === layerOf(i.from) && pureFolderOf(target) === undefined) {
        violations.push(`${where(i)}: src/${pure} is pure and may import only pure code`);
      }
    }
    for (const file of files.filter((f) => pureFolderOf(f) !== undefined)) {
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, index) => {
          if (CLOCK_OR_RANDOM.test(line.replace(/\/\/.*$/, '')))
            violations.push(`${relative(root, file)}:${index + 1}: reads the clock or randomness: ${line.trim()}`);
        });
    }
    expect(violations).toEqual([]);
  });

  it('prints and exits only in src/cli', () => {
    const violations: string[] = [];
    for (const file of files.filter((f) => layerOf(f) !== 'cli')) {
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, index) => {
          const code = line.replace(/\/\/.*$/, '');
          if (/\bconsole\.[a-z]+\s*\(|\bprocess\.(exit|stdout|stderr)\b/.test(code)) {
            violations.push(`${relative(root, file)}:${index + 1}: ${line.trim()}`);
          }
        });
    }
    expect(violations).toEqual([]);
  });

  it('has no import cycles among src files', () => {
    const graph = new Map<string, string[]>();
    for (const file of files) graph.set(file, []);
    for (const i of imports) {
      // Type-only edges vanish at build time and cannot cause an initialisation-order bug.
      if (isRelative(i.specifier) && !i.typeOnly) graph.get(i.from)!.push(resolveRelative(i));
    }
    const cycles: string[] = [];
    const state = new Map<string, 'visiting' | 'done'>();
    const path: string[] = [];
    const visit = (file: string) => {
      state.set(file, 'visiting');
      path.push(file);
      for (const next of graph.get(file) ?? []) {
        if (state.get(next) === 'visiting') {
          cycles.push(
            path
              .slice(path.indexOf(next))
              .concat(next)
              .map((f) => relative(srcDir, f))
              .join(' -> '),
          );
        } else if (!state.has(next) && graph.has(next)) {
          visit(next);
        }
      }
      path.pop();
      state.set(file, 'done');
    };
    for (const file of files) if (!state.has(file)) visit(file);
    expect(cycles).toEqual([]);
  });
});
