/** Longest slug the API accepts (published spec: 0 to 100 characters). */
export const MAX_SLUG_LENGTH = 100;

/**
 * Why a slug cannot be used, or undefined when it can. A slug is one path segment: it names a
 * file or folder in the Git Sync layout, so it may not escape its folder (`/`, `\\` on Windows,
 * `.`, `..`) or hide control bytes. Anything else GitBook writes is kept as given
 * (`detox-+-jest`, `v1..v2`, `a.b`): these are its file names.
 */
export function slugProblem(slug: string): string | undefined {
  if (slug.length > MAX_SLUG_LENGTH) return `must be at most ${MAX_SLUG_LENGTH} characters`;
  if (slug.includes('/') || slug.includes('\\')) return 'must not contain `/` or `\\`';
  if (slug === '..') return 'must not be `..`';
  if (slug === '.') return 'must not be `.`';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(slug)) return 'must not contain control characters';
  return undefined;
}

/**
 * A slug made from a title: lower case, letters and digits of any script kept, every other run
 * of characters one `-`. Accents are dropped from Latin letters so `Café` gives `cafe`.
 */
export function slugify(title: string): string {
  const slug = title
    .normalize('NFKD')
    // Only Latin letters lose their accents; other scripts' marks (kana voicing) carry meaning.
    .replace(/(\p{Script=Latin})\p{M}+/gu, '$1')
    .normalize('NFC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
  return slug.slice(0, MAX_SLUG_LENGTH).replace(/-+$/, '') || 'page';
}

/** `base`, or `base-2`, `base-3`, ... : the first one not in `taken`. */
export function uniqueSlug(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n += 1) {
    const suffix = `-${n}`;
    const candidate = `${base.slice(0, MAX_SLUG_LENGTH - suffix.length)}${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}
