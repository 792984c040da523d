/** Schemes a browser runs or renders as a document when the URL is followed: never stored as a link. */
const SCRIPT_SCHEMES = new Set(['javascript:', 'vbscript:', 'data:']);

/**
 * Why an absolute URL may not be stored as something people click (a link page, a logo), or
 * undefined. Judged on the scheme the WHATWG URL parser reads, so `JaVaScRiPt:` and
 * leading-space forms are caught as a browser would read them.
 */
export function scriptUrlProblem(url: string): string | undefined {
  let protocol: string;
  try {
    protocol = new URL(url.trim()).protocol.toLowerCase();
  } catch {
    return undefined;
  }
  return SCRIPT_SCHEMES.has(protocol)
    ? `must not be a ${protocol} URL (it would run or render content in the reader's browser)`
    : undefined;
}
