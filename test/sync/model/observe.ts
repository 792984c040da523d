import { execFileSync } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { TestServer } from '../../helpers/server.js';

/** Every token written in these tests: `w<n>` by the writer, `p<n>` by the platform. */
export const TOKEN = /\b[wp]tok\d+\b/g;
export const tokensOf = (text: string): string[] => text.match(TOKEN) ?? [];

export interface PlatformPage {
  id: string;
  title: string;
  markdown: string;
  /** The ids of the pages above it, nearest last. */
  ancestors: string[];
}

/** The document pages of a scope (main, or a change request) with their bodies, in tree order. */
export async function platformPages(s: TestServer, spaceId: string, changeRequestId?: string): Promise<PlatformPage[]> {
  const scope = changeRequestId ? `change-requests/${changeRequestId}/content` : 'content';
  const res = await s.request('GET', `/v1/spaces/${spaceId}/${scope}/pages?format=markdown`);
  if (res.status !== 200) throw new Error(`pages of ${scope}: ${res.status} ${JSON.stringify(res.body)}`);
  const out: PlatformPage[] = [];
  const walk = (pages: any[], ancestors: string[]) => {
    for (const page of pages) {
      if (page.type === 'document') out.push({ id: page.id, title: page.title, markdown: String(page.markdown ?? ''), ancestors });
      walk(page.pages ?? [], [...ancestors, page.id]);
    }
  };
  walk(res.body.pages, []);
  return out;
}

/** The ids of the space's open change requests. */
export async function openChangeRequests(s: TestServer, spaceId: string): Promise<string[]> {
  const res = await s.request('GET', `/v1/spaces/${spaceId}/change-requests?status=open&limit=100`);
  return (res.body.items as { id: string }[]).map((cr) => cr.id);
}

/** Every markdown file of the working tree (no `.git`), by path. */
export async function workingTree(dir: string, sub = ''): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const entry of await readdir(join(dir, sub), { withFileTypes: true })) {
    const path = sub ? `${sub}/${entry.name}` : entry.name;
    if (entry.name === '.git') continue;
    if (entry.isDirectory()) for (const [p, t] of await workingTree(dir, path)) files.set(p, t);
    else if (entry.name.endsWith('.md')) files.set(path, await readFile(join(dir, path), 'utf8'));
  }
  return files;
}

/** All the text the writer can see in git: every local branch's markdown files. */
export function branchesText(dir: string): string {
  const branches = execFileSync('git', ['for-each-ref', '--format=%(refname:short)', 'refs/heads'], { cwd: dir, encoding: 'utf8' })
    .split('\n')
    .filter(Boolean);
  const grep = (branch: string) => {
    try {
      return execFileSync('git', ['grep', '-h', '-o', '-E', '[wp]tok[0-9]+', branch, '--', '*.md'], { cwd: dir, encoding: 'utf8' });
    } catch {
      return ''; // git grep exits 1 when nothing matches
    }
  };
  return branches.map(grep).join('\n');
}

/** The page files SUMMARY.md lists, in order (the targets of its items). */
export const summaryTargets = (summary: string): string[] =>
  [...summary.matchAll(/^\s*\* \[[^\]]*\]\(([^)]+)\)/gm)].map((m) => decodeURI(m[1]!));

export const hasMarkers = (text: string): boolean => /^(<<<<<<<|=======|>>>>>>>)( |$)/m.test(text);
