import type { LookupAddress } from 'node:dns';
import { lookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import type { Agent } from 'undici';

type Undici = typeof import('undici');
import { BaseError } from '../../model/index.js';
import { addressProblem } from './address.js';

/** A fetch the server refused or could not complete; the message says which URL and why. */
export class FetchError extends BaseError<'fetch-failed'> {
  /** The fetch ran out of time: its own timeout, or what was left of its request's (or job's) budget. */
  readonly timedOut: boolean;

  constructor(message: string, options: { timedOut?: boolean } = {}) {
    super('fetch-failed', message);
    this.timedOut = options.timedOut ?? false;
  }
}

export interface SafeFetchOptions {
  /** Fetch loopback, private and reserved addresses too (tests, trusted networks). */
  allowPrivate: boolean;
  /** Largest body accepted, in bytes. */
  maxBytes: number;
  /** For the whole exchange, redirects and body included. @default 10000 */
  timeoutMs?: number;
  /** @default 5 */
  maxRedirects?: number;
  /** How host names are resolved (tests answer for names no DNS knows). @default node:dns `lookup`, every address */
  resolve?: Resolve;
}

/** Every address a host name has. */
export type Resolve = (host: string) => Promise<LookupAddress[]>;

const systemResolve: Resolve = (host) => lookup(host, { all: true, verbatim: true });

export interface Fetched {
  /** The URL finally answered, after redirects. */
  url: string;
  contentType: string | undefined;
  bytes: Buffer;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * Resolves the URL's host once and refuses it when it is, or resolves to, an address that is not
 * public unicast. Returns the addresses checked (none for an IP literal): the connection is made
 * to them and to nothing else (`pinnedAgent`).
 */
async function checkHost(url: URL, options: SafeFetchOptions): Promise<LookupAddress[]> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new FetchError(`${url.href}: only http and https URLs can be fetched`);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: LookupAddress[] = [];
  if (isIP(host)) {
    if (!options.allowPrivate) addresses = [{ address: host, family: isIP(host) }];
  } else {
    try {
      addresses = await (options.resolve ?? systemResolve)(host);
    } catch {
      addresses = [];
    }
    if (addresses.length === 0) throw new FetchError(`${url.href}: host ${host} does not resolve`);
  }
  if (!options.allowPrivate) {
    for (const { address } of addresses) {
      const problem = addressProblem(address);
      if (problem) throw new FetchError(`${url.href}: refused, ${problem}`);
    }
  }
  return isIP(host) ? [] : addresses;
}

/**
 * A dispatcher whose connections to `host` go to `addresses`, the ones `checkHost` resolved and
 * checked, without resolving the name again: a DNS answer that changes between the check and the
 * connection (rebinding: public first, 127.0.0.1 next) cannot redirect it. TLS still verifies the
 * certificate against the host name.
 */
function pinnedAgent(undici: Undici, host: string, addresses: LookupAddress[]): Agent {
  const pinned: LookupFunction = (hostname, options, callback) => {
    if (hostname !== host || addresses.length === 0) {
      const error = Object.assign(new Error(`${hostname} was not checked by the fetch guard`), { code: 'ENOTFOUND' });
      callback(error, '', 0);
      return;
    }
    if (options.all) (callback as unknown as (e: null, all: LookupAddress[]) => void)(null, addresses);
    else callback(null, addresses[0]!.address, addresses[0]!.family);
  };
  return new undici.Agent({ connect: { lookup: pinned } });
}

async function readCapped(response: Response, url: string, maxBytes: number): Promise<Buffer> {
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (declared > maxBytes) throw new FetchError(`${url}: larger than ${maxBytes} bytes`);
  const chunks: Buffer[] = [];
  let size = 0;
  if (response.body) {
    for await (const chunk of response.body) {
      size += chunk.length;
      if (size > maxBytes) throw new FetchError(`${url}: larger than ${maxBytes} bytes`);
      chunks.push(Buffer.from(chunk));
    }
  }
  return Buffer.concat(chunks);
}

/**
 * GETs a URL for the server (file uploads by URL, imports, OpenAPI specs). Redirects are followed
 * by hand so every hop's host is checked before it is contacted, and each hop connects to the
 * addresses its check resolved (no second lookup, so no DNS rebinding).
 */
export async function safeFetch(input: string, options: SafeFetchOptions): Promise<Fetched> {
  // Loaded on the first fetch (most servers never fetch; it is a large module graph to load at
  // start), and before the timeout starts.
  const undici = await import('undici');
  const signal = AbortSignal.timeout(options.timeoutMs ?? 10_000);
  const maxRedirects = options.maxRedirects ?? 5;
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new FetchError(`${input}: not a valid URL`);
  }
  const agents: Agent[] = [];
  try {
    for (let hop = 0; ; hop += 1) {
      const addresses = await checkHost(url, options);
      const dispatcher = pinnedAgent(undici, url.hostname, addresses);
      agents.push(dispatcher);
      const response = await undici.fetch(url, { redirect: 'manual', signal, headers: { 'user-agent': 'docsync' }, dispatcher });
      const location = response.headers.get('location');
      if (REDIRECTS.has(response.status) && location !== null) {
        await response.body?.cancel();
        if (hop >= maxRedirects) throw new FetchError(`${input}: more than ${maxRedirects} redirects`);
        url = new URL(location, url);
        continue;
      }
      if (!response.ok) {
        await response.body?.cancel();
        throw new FetchError(`${url.href}: answered HTTP ${response.status}`);
      }
      const bytes = await readCapped(response, url.href, options.maxBytes);
      return { url: url.href, contentType: response.headers.get('content-type') ?? undefined, bytes };
    }
  } catch (error) {
    if (error instanceof FetchError) throw error;
    if (signal.aborted) throw new FetchError(`${url.href}: no answer within ${options.timeoutMs ?? 10_000} ms`, { timedOut: true });
    throw new FetchError(`${url.href}: ${describe(error)}`);
  } finally {
    await Promise.all(agents.map((agent) => agent.destroy()));
  }
}

/** undici's `fetch failed` says why in its cause (the connection's error). */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return error.cause instanceof Error ? `${error.message} (${error.cause.message})` : error.message;
}
