import { createHash } from 'node:crypto';
import { posix } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import type { OpenAPIErrorCode, OpenAPIErrorObject } from '../../model/index.js';
import { FetchBudget } from '../fetch/budget.js';
import { FetchError } from '../fetch/safe-fetch.js';
import { OPENAPI_LIMITS } from './limits.js';

/** Why a spec could not be processed, with the published error code it answers. */
export class SpecProcessError extends Error {
  constructor(
    readonly code: OpenAPIErrorCode,
    readonly errors: OpenAPIErrorObject[],
  ) {
    super(errors.map((e) => e.message).join('; '));
  }
}

export interface ReadSpec {
  /** The entry document's path inside `files`. */
  entry: string;
  /** Each file read, by path relative to the entry's folder, as the parser parsed it. */
  files: Record<string, unknown>;
  /** sha256 over every file's path and text: equal digests mean unchanged content. */
  digest: string;
  /** The spec with every `$ref` resolved (it may be circular: do not serialise it). */
  api: SwaggerParser['api'];
}

/** A text source has no URL of its own; its entry is read from memory under this name. */
const TEXT_ENTRY = 'https://uploaded.invalid/openapi';

/** The fetch budget of one spec's processing (one job run): FETCH_BUDGET's, holding 20 MiB at most. */
export function specFetchBudget(): FetchBudget {
  return new FetchBudget({ maxBytes: OPENAPI_LIMITS.maxTotalBytes }, 'one OpenAPI spec');
}

/**
 * Reads, parses and validates an OpenAPI 2.0, 3.0 or 3.1 document (JSON or YAML) with
 * swagger-parser. From a URL, the entry and the files its `$ref`s name are fetched through the
 * fetch guard within `budget` (files, bytes and time together), and only from the entry's
 * origin; a text source may not `$ref` other files. The first fetch refused or failed fails the
 * spec, and no other file is fetched after it.
 */
export async function readSpec(
  source: { url: string } | { text: string },
  options: { allowPrivate: boolean; budget?: FetchBudget },
): Promise<ReadSpec> {
  const budget = options.budget ?? specFetchBudget();
  const texts = new Map<string, string>();
  const entryUrl = 'url' in source ? source.url : TEXT_ENTRY;
  if ('text' in source) texts.set(TEXT_ENTRY, source.text.replace(/^\uFEFF/, ''));
  const origin = new URL(entryUrl).origin;
  let fetchFailure: SpecProcessError | undefined;

  const read = async (url: string): Promise<string> => {
    const known = texts.get(url);
    if (known !== undefined) return known;
    if (fetchFailure) throw fetchFailure;
    const fail = (code: OpenAPIErrorCode, message: string) => {
      fetchFailure ??= new SpecProcessError(code, [{ message, code }]);
      throw fetchFailure;
    };
    if ('text' in source) fail('PARSE_ERROR', `${url}: a spec given as text cannot $ref other files; give the spec by URL instead`);
    if (new URL(url).origin !== origin) fail('FETCH_ERROR', `${url}: a $ref may only name files of the spec's origin ${origin}`);
    try {
      const fetched = await budget.fetch(url, {
        allowPrivate: options.allowPrivate,
        maxBytes: OPENAPI_LIMITS.maxFileBytes,
        timeoutMs: OPENAPI_LIMITS.timeoutMs,
      });
      const text = new TextDecoder('utf-8').decode(fetched.bytes).replace(/^\uFEFF/, '');
      texts.set(url, text);
      return text;
    } catch (error) {
      if (error instanceof SpecProcessError) throw error;
      if (!(error instanceof FetchError)) fail('FETCH_ERROR', `${url}: ${String(error)}`);
      const refused = error as FetchError;
      fail(refused.timedOut ? 'FETCH_TIMEOUT' : 'FETCH_ERROR', refused.message);
      throw error;
    }
  };
  const parserOptions: SwaggerParser.Options = {
    // A spec's URL need not end in .json or .yaml: every file is tried as JSON, then as YAML,
    // and is never taken as plain text (which would only fail later, less clearly). The JSON
    // parser's allowBOM retries from the first `{`, which turns YAML such as `paths: {}` into
    // `{}`; the BOM is stripped before parsing instead.
    parse: { json: { order: 1, canParse: true, allowBOM: false }, yaml: { order: 2, canParse: true }, text: false, binary: false },
    resolve: { file: false, http: false, docsync: { order: 1, canRead: true, read: (file: { url: string }) => read(file.url) } } as never,
  };

  const files: Record<string, unknown> = {};
  const entryPath = (url: string) => new URL(url).pathname;
  const base = posix.dirname(entryPath(entryUrl));
  const relative = (url: string) => ('text' in source ? 'openapi' : posix.relative(base, entryPath(url)) || posix.basename(entryPath(url)));
  let api: SwaggerParser['api'];
  try {
    const resolver = new SwaggerParser();
    await resolver.resolve(entryUrl, parserOptions);
    for (const [url, value] of Object.entries(resolver.$refs.values())) files[relative(url)] = structuredClone(value);
    api = await new SwaggerParser().validate(entryUrl, parserOptions);
  } catch (error) {
    if (fetchFailure) throw fetchFailure;
    const found = problems(error);
    // An uploaded document has no URL: its problems name "the document".
    if ('text' in source)
      for (const p of found) p.message = p.message.replaceAll(`"${TEXT_ENTRY}"`, 'the document').replaceAll(TEXT_ENTRY, 'the document');
    throw new SpecProcessError('PARSE_ERROR', found);
  }
  const hash = createHash('sha256');
  for (const url of [...texts.keys()].sort()) hash.update(`${relative(url)}\0${texts.get(url)!}\0`);
  return { entry: relative(entryUrl), files, digest: hash.digest('hex'), api };
}

/** swagger-parser's message lists one problem per line after its first line. */
function problems(error: unknown): OpenAPIErrorObject[] {
  const message = error instanceof Error ? error.message : String(error);
  const lines = message
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
  if (lines.length > 1 && /validation failed/i.test(lines[0]!))
    return lines.slice(1).map((l) => ({ message: `${lines[0]!.replace(/\.$/, '')}: ${l}`, code: 'invalid' }));
  return [{ message: lines.join(' ') || 'the document could not be parsed', code: 'unparsable' }];
}
