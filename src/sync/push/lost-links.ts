import { posix } from 'node:path';
import { classifyLink, extractLinks } from '../../content/index.js';

/** A link, image or link definition the writer wrote that the platform did not store. */
export interface UnsentLink {
  /** The page file, relative to the folder. */
  path: string;
  /** 1-based line in the writer's file. */
  line: number;
  url: string;
}

const decoder = new TextDecoder();

/** What a link points at, from the file it is in: `./a.md`, `a.md` and `sub/../a.md` are one target. */
function targetOf(file: string, url: string): string {
  const target = classifyLink(url.trim());
  switch (target.type) {
    case 'external':
      return target.url;
    case 'anchor':
      return `#${target.anchor}`;
    case 'absolute-path':
      return posix.normalize(target.path);
    case 'relative':
      return target.path === '' ? '' : posix.normalize(posix.join(posix.dirname(file), target.path));
  }
}

/**
 * The links, images and link definitions of the writer's file (`local`) that the server's form of
 * the same page (`server`) lacks: a link to a page not written yet, an image whose asset is
 * missing or too large to send, a definition. The server stores what it cannot resolve as plain
 * text; the writer's file must keep it (the read-back does not take the server's form then), and
 * each is reported with its line. Compared by target, so a link the server writes in another
 * form (`./a.md` as `a.md`, an image as HTML) is not lost.
 */
export function lostLinks(path: string, local: Uint8Array, server: Uint8Array | undefined): UnsentLink[] {
  const ours = extractLinks(decoder.decode(local));
  if (ours.length === 0) return [];
  const theirs = new Map<string, number>();
  for (const link of server === undefined ? [] : extractLinks(decoder.decode(server))) {
    const key = targetOf(path, link.url);
    theirs.set(key, (theirs.get(key) ?? 0) + 1);
  }
  const lost: UnsentLink[] = [];
  for (const link of ours) {
    const key = targetOf(path, link.url);
    const left = theirs.get(key) ?? 0;
    if (left > 0) theirs.set(key, left - 1);
    else lost.push({ path, line: link.line, url: link.url });
  }
  return lost;
}
