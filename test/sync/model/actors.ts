import { existsSync } from 'node:fs';
import { readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import type { Client } from '../../../src/client/index.js';
import { pull } from '../../../src/sync/pull/pull.js';
import { push } from '../../../src/sync/push/push.js';
import { syncPass } from '../../../src/sync/sync-pass.js';
import { merge, mergePushed } from '../../../src/sync/change-requests/merge.js';
import { readState } from '../../../src/sync/state/state.js';
import type { TestServer } from '../../helpers/server.js';
import { editMain, git } from '../fixture.js';
import { branchesText, hasMarkers, openChangeRequests, platformPages, summaryTargets, tokensOf, workingTree } from './observe.js';

/**
 * What the test knows, not what the system holds: the tokens (one paragraph each) that must
 * still exist somewhere the writer can see them (a file or branch of the workspace, the space,
 * or an open change request), and each page's id by its title (titles never change here).
 */
export interface Model {
  live: Set<string>;
  n: number;
  ids: Map<string, string>;
}

export interface Real {
  s: TestServer;
  client: Client;
  spaceId: string;
  dir: string;
}

type Cmd = fc.AsyncCommand<Model, Real>;

const pick = <T>(items: readonly T[], at: number): T | undefined => (items.length === 0 ? undefined : items[at % items.length]);

async function commit(dir: string, message: string): Promise<void> {
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '--allow-empty', '-m', message);
}

const summaryPath = (r: Real) => join(r.dir, 'SUMMARY.md');

/** The page files SUMMARY.md lists that exist on disk. */
async function listedPages(r: Real): Promise<string[]> {
  const tree = await workingTree(r.dir);
  return summaryTargets(tree.get('SUMMARY.md') ?? '').filter((path) => tree.has(path));
}

/** Every token somewhere the writer can see it: the working tree, a local branch, the space, an open change request. */
async function seenTokens(r: Real): Promise<Set<string>> {
  const seen = new Set<string>();
  for (const text of (await workingTree(r.dir)).values()) for (const t of tokensOf(text)) seen.add(t);
  for (const t of tokensOf(branchesText(r.dir))) seen.add(t);
  for (const page of await platformPages(r.s, r.spaceId)) for (const t of tokensOf(page.markdown)) seen.add(t);
  for (const cr of await openChangeRequests(r.s, r.spaceId)) {
    for (const page of await platformPages(r.s, r.spaceId, cr)) for (const t of tokensOf(page.markdown)) seen.add(t);
  }
  return seen;
}

/** The invariants, checked after every step. */
export async function checkInvariants(m: Model, r: Real, step: string): Promise<void> {
  const seen = await seenTokens(r);
  const main = await platformPages(r.s, r.spaceId);
  const lost = [...m.live].filter((t) => !seen.has(t));
  if (lost.length > 0) throw new Error(`after ${step}: text lost: ${lost.join(', ')} are nowhere the writer can see`);
  // A page keeps its id for as long as it lives (renames and moves included).
  for (const page of main) {
    const known = m.ids.get(page.title);
    if (known !== undefined && known !== page.id)
      throw new Error(`after ${step}: page "${page.title}" changed id from ${known} to ${page.id}`);
    m.ids.set(page.title, page.id);
  }
}

/** After a sync with no conflict and nothing left out, the folder and the platform hold the same pages with the same text. */
async function checkSame(r: Real, step: string): Promise<void> {
  const tree = await workingTree(r.dir);
  const local = new Map<string, string>();
  for (const path of summaryTargets(tree.get('SUMMARY.md') ?? '')) {
    const text = tree.get(path);
    if (text === undefined) continue;
    const title = /^# (.*)$/m.exec(text)?.[1]?.trim() ?? path;
    local.set(title, tokensOf(text).sort().join(' '));
  }
  const remote = new Map((await platformPages(r.s, r.spaceId)).map((p) => [p.title, tokensOf(p.markdown).sort().join(' ')]));
  const a = JSON.stringify([...local].sort());
  const b = JSON.stringify([...remote].sort());
  if (a !== b) throw new Error(`after ${step}: the folder and the platform differ after a clean sync:\n  folder:   ${a}\n  platform: ${b}`);
}

abstract class Step implements Cmd {
  check(): boolean {
    return true;
  }
  abstract act(m: Model, r: Real): Promise<void>;
  abstract toString(): string;
  async run(m: Model, r: Real): Promise<void> {
    await this.act(m, r);
    await checkInvariants(m, r, this.toString());
  }
}

const token = (m: Model, side: 'w' | 'p') => `${side}tok${(m.n += 1)}`;

// ----- the writer: files, git, and the docsync library -----

export class WriterAppend extends Step {
  constructor(readonly at: number) {
    super();
  }
  toString() {
    return `writer appends to page #${this.at}`;
  }
  async act(m: Model, r: Real) {
    const path = pick(await listedPages(r), this.at);
    if (path === undefined) return;
    const text = await readFile(join(r.dir, path), 'utf8');
    const t = token(m, 'w');
    await writeFile(join(r.dir, path), `${text.trimEnd()}\n\n${t}\n`);
    m.live.add(t);
    await commit(r.dir, `append ${t}`);
  }
}

export class WriterReplace extends Step {
  constructor(
    readonly at: number,
    readonly line: number,
  ) {
    super();
  }
  toString() {
    return `writer replaces token #${this.line} of page #${this.at}`;
  }
  async act(m: Model, r: Real) {
    const path = pick(await listedPages(r), this.at);
    if (path === undefined) return;
    const text = await readFile(join(r.dir, path), 'utf8');
    if (hasMarkers(text)) return;
    const old = pick(tokensOf(text), this.line);
    if (old === undefined) return;
    const t = token(m, 'w');
    await writeFile(join(r.dir, path), text.replace(new RegExp(`\\b${old}\\b`), t));
    m.live.delete(old);
    m.live.add(t);
    await commit(r.dir, `replace ${old} by ${t}`);
  }
}

export class WriterAdd extends Step {
  constructor(readonly folder: boolean) {
    super();
  }
  toString() {
    return `writer adds a page${this.folder ? ' in a folder' : ''}`;
  }
  async act(m: Model, r: Real) {
    const t = token(m, 'w');
    const path = this.folder ? `f${m.n}/n${m.n}.md` : `n${m.n}.md`;
    await mkdir(dirname(join(r.dir, path)), { recursive: true });
    await writeFile(join(r.dir, path), `# Page N${m.n}\n\n${t}\n`);
    const summary = await readFile(summaryPath(r), 'utf8');
    await writeFile(summaryPath(r), `${summary.trimEnd()}\n* [Page N${m.n}](${path})\n`);
    m.live.add(t);
    await commit(r.dir, `add ${path}`);
  }
}

export class WriterDelete extends Step {
  constructor(readonly at: number) {
    super();
  }
  toString() {
    return `writer deletes page #${this.at}`;
  }
  async act(m: Model, r: Real) {
    const path = pick(
      (await listedPages(r)).filter((p) => p !== 'README.md'),
      this.at,
    );
    if (path === undefined) return;
    const text = await readFile(join(r.dir, path), 'utf8');
    if (hasMarkers(text)) return;
    await rm(join(r.dir, path));
    const summary = await readFile(summaryPath(r), 'utf8');
    await writeFile(
      summaryPath(r),
      summary
        .split('\n')
        .filter((line) => !line.includes(`](${path})`))
        .join('\n'),
    );
    for (const t of tokensOf(text)) m.live.delete(t);
    await commit(r.dir, `delete ${path}`);
  }
}

export class WriterRename extends Step {
  constructor(
    readonly at: number,
    readonly intoFolder: boolean,
  ) {
    super();
  }
  toString() {
    return `writer ${this.intoFolder ? 'moves' : 'renames'} page #${this.at}`;
  }
  async act(m: Model, r: Real) {
    const path = pick(
      (await listedPages(r)).filter((p) => p !== 'README.md'),
      this.at,
    );
    if (path === undefined) return;
    m.n += 1;
    const to = this.intoFolder ? `moved${m.n}/${path.split('/').at(-1)}` : path.replace(/\.md$/, `-r${m.n}.md`);
    await mkdir(dirname(join(r.dir, to)), { recursive: true });
    git(r.dir, 'mv', path, to);
    const summary = await readFile(summaryPath(r), 'utf8');
    await writeFile(summaryPath(r), summary.replace(`](${path})`, `](${to})`));
    await commit(r.dir, `rename ${path} to ${to}`);
  }
}

export class WriterReorder extends Step {
  constructor(
    readonly a: number,
    readonly b: number,
  ) {
    super();
  }
  toString() {
    return `writer swaps SUMMARY.md items #${this.a} and #${this.b}`;
  }
  async act(_m: Model, r: Real) {
    const lines = (await readFile(summaryPath(r), 'utf8')).split('\n');
    const items = lines.flatMap((line, i) => (/^\* \[/.test(line) && !line.includes('(README.md)') ? [i] : []));
    const [i, j] = [pick(items, this.a), pick(items, this.b)];
    if (i === undefined || j === undefined || i === j) return;
    [lines[i], lines[j]] = [lines[j]!, lines[i]!];
    await writeFile(summaryPath(r), lines.join('\n'));
    await commit(r.dir, 'reorder');
  }
}

export class WriterLink extends Step {
  constructor(
    readonly at: number,
    readonly to: number,
  ) {
    super();
  }
  toString() {
    return `writer links page #${this.at} to page #${this.to}`;
  }
  async act(m: Model, r: Real) {
    const pages = await listedPages(r);
    const [path, target] = [pick(pages, this.at), pick(pages, this.to)];
    if (path === undefined || target === undefined) return;
    const depth = path.split('/').length - 1;
    const href = `${'../'.repeat(depth)}${target}`;
    const t = token(m, 'w');
    const text = await readFile(join(r.dir, path), 'utf8');
    await writeFile(join(r.dir, path), `${text.trimEnd()}\n\nSee [${t}](${href}).\n`);
    m.live.add(t);
    await commit(r.dir, `link ${path} to ${target}`);
  }
}

/** Resolves every conflict the way a careful writer does when unsure: keeps both sides' lines. */
export class WriterResolve extends Step {
  toString() {
    return 'writer resolves conflicts keeping both sides';
  }
  async act(_m: Model, r: Real) {
    const tree = await workingTree(r.dir);
    let any = false;
    for (const [path, text] of tree) {
      if (!hasMarkers(text)) continue;
      any = true;
      await writeFile(
        join(r.dir, path),
        text
          .split('\n')
          .filter((line) => !/^(<<<<<<<|=======|>>>>>>>)( |$)/.test(line))
          .join('\n'),
      );
    }
    // A merge git stopped (markers, or a file one side deleted and the other edited) is concluded.
    const merging = existsSync(join(r.dir, '.git', 'MERGE_HEAD'));
    if (any || merging) await commit(r.dir, 'resolve');
  }
}

export class WriterBranch extends Step {
  constructor(readonly at: number) {
    super();
  }
  toString() {
    return `writer edits page #${this.at} on a new branch and pushes it`;
  }
  async act(m: Model, r: Real) {
    const path = pick(await listedPages(r), this.at);
    if (path === undefined || hasMarkers((await workingTree(r.dir)).get('SUMMARY.md') ?? '')) return;
    const name = `topic${(m.n += 1)}`;
    git(r.dir, 'checkout', '-qb', name);
    try {
      const t = token(m, 'w');
      const text = await readFile(join(r.dir, path), 'utf8');
      await writeFile(join(r.dir, path), `${text.trimEnd()}\n\n${t}\n`);
      m.live.add(t);
      await commit(r.dir, `topic ${t}`);
      try {
        await push(r.client, r.dir, { branch: name });
      } catch (error) {
        if (!(error as { code?: string }).code) throw error;
      }
    } finally {
      git(r.dir, 'checkout', '-q', 'main');
    }
  }
}

export class WriterDeleteBranch extends Step {
  constructor(readonly at: number) {
    super();
  }
  toString() {
    return `writer deletes topic branch #${this.at} with git branch -D`;
  }
  async act(m: Model, r: Real) {
    const branches = git(r.dir, 'for-each-ref', '--format=%(refname:short)', 'refs/heads/topic*').split('\n').filter(Boolean);
    const name = pick(branches, this.at);
    if (name === undefined) return;
    git(r.dir, 'branch', '-qD', name);
    // What only that branch held (a push refused, say) the writer deleted with it.
    const seen = await seenTokens(r);
    for (const t of [...m.live]) if (t.startsWith('w') && !seen.has(t)) m.live.delete(t);
  }
}

/**
 * The git way of bringing main into a branch: a tracked topic branch merges main (conflicts
 * resolved keeping both sides), is pushed, and its change request merged through docsync.
 */
export class WriterMergeMain extends Step {
  constructor(readonly at: number) {
    super();
  }
  toString() {
    return `writer merges main into topic branch #${this.at}, pushes and merges it`;
  }
  async act(m: Model, r: Real) {
    const state = await readState(r.dir);
    const branches = git(r.dir, 'for-each-ref', '--format=%(refname:short)', 'refs/heads/topic*')
      .split('\n')
      .filter((b) => b !== '' && state.branches[b]?.changeRequestId !== undefined && state.branches[b]?.closed === undefined);
    const name = pick(branches, this.at);
    if (name === undefined) return;
    git(r.dir, 'checkout', '-q', name);
    try {
      try {
        git(r.dir, 'merge', '-q', '--no-edit', 'main');
      } catch {
        await new WriterResolve().act(m, r);
      }
      try {
        await push(r.client, r.dir, { branch: name });
        await merge(r.client, r.dir, name);
      } catch (error) {
        if (!(error as { code?: string }).code) throw error;
      }
    } finally {
      git(r.dir, 'checkout', '-q', 'main');
    }
  }
}

/** `git reset --hard HEAD~1` on main: the writer's own text in the commit dropped is the writer's deletion. */
export class WriterReset extends Step {
  toString() {
    return 'writer resets main by one commit (git reset --hard HEAD~1)';
  }
  async act(m: Model, r: Real) {
    if (git(r.dir, 'rev-list', '--count', 'HEAD').trim() === '1') return;
    const before = new Set([...(await workingTree(r.dir)).values()].flatMap(tokensOf));
    git(r.dir, 'reset', '-q', '--hard', 'HEAD~1');
    const after = new Set([...(await workingTree(r.dir)).values()].flatMap(tokensOf));
    for (const t of before) if (t.startsWith('w') && !after.has(t)) m.live.delete(t);
  }
}

// ----- the platform: the API, on main (a change request merged at once) -----

async function platformPage(r: Real, at: number, skipFirst: boolean) {
  const pages = await platformPages(r.s, r.spaceId);
  return pick(skipFirst ? pages.slice(1) : pages, at);
}

export class PlatformAppend extends Step {
  constructor(readonly at: number) {
    super();
  }
  toString() {
    return `platform appends to page #${this.at}`;
  }
  async act(m: Model, r: Real) {
    const page = await platformPage(r, this.at, false);
    if (page === undefined) return;
    const t = token(m, 'p');
    await editMain(r.s, r.spaceId, [
      { operation: 'update_page', page: page.id, document: { markdown: `# ${page.title}\n\n${page.markdown.trim()}\n\n${t}\n` } },
    ]);
    m.live.add(t);
  }
}

export class PlatformReplace extends Step {
  constructor(
    readonly at: number,
    readonly line: number,
  ) {
    super();
  }
  toString() {
    return `platform replaces token #${this.line} of page #${this.at}`;
  }
  async act(m: Model, r: Real) {
    const page = await platformPage(r, this.at, false);
    const old = page && pick(tokensOf(page.markdown), this.line);
    if (page === undefined || old === undefined) return;
    const t = token(m, 'p');
    await editMain(r.s, r.spaceId, [
      {
        operation: 'update_page',
        page: page.id,
        document: { markdown: `# ${page.title}\n\n${page.markdown.trim().replace(new RegExp(`\\b${old}\\b`), t)}\n` },
      },
    ]);
    m.live.delete(old);
    m.live.add(t);
  }
}

/** A page's slug changed on the platform: its file moves on the next pull, its id stays. */
export class PlatformSlug extends Step {
  constructor(readonly at: number) {
    super();
  }
  toString() {
    return `platform changes the slug of page #${this.at}`;
  }
  async act(m: Model, r: Real) {
    const page = await platformPage(r, this.at, true);
    if (page === undefined) return;
    await editMain(r.s, r.spaceId, [{ operation: 'update_page', page: page.id, slug: `s${(m.n += 1)}` }]);
  }
}

/** A page moved under another on the platform: both files move on the next pull (the parent gets a folder). */
export class PlatformMove extends Step {
  constructor(
    readonly at: number,
    readonly to: number,
  ) {
    super();
  }
  toString() {
    return `platform moves page #${this.at} under page #${this.to}`;
  }
  async act(_m: Model, r: Real) {
    const pages = (await platformPages(r.s, r.spaceId)).slice(1);
    const [page, parent] = [pick(pages, this.at), pick(pages, this.to)];
    if (page === undefined || parent === undefined || page.id === parent.id) return;
    const cr = (await r.s.request('POST', `/v1/spaces/${r.spaceId}/change-requests`, { body: { subject: 'move' } })).body;
    const res = await r.s.request('POST', `/v1/spaces/${r.spaceId}/change-requests/${cr.id}/content?compat=false`, {
      body: { changes: [{ operation: 'update_page', page: page.id, into: parent.id }] },
    });
    // A page cannot go under its own child: the platform refuses, and nothing changes.
    if (res.status !== 200) return;
    await r.s.request('POST', `/v1/spaces/${r.spaceId}/change-requests/${cr.id}/merge`);
  }
}

/** A reviewer appends to a page of main's change request (the outbox), when there is one. */
export class PlatformReview extends Step {
  constructor(readonly at: number) {
    super();
  }
  toString() {
    return `reviewer appends to page #${this.at} of main's change request`;
  }
  async act(m: Model, r: Real) {
    const outbox = (await readState(r.dir)).branches.main?.outbox?.changeRequestId;
    if (outbox === undefined) return;
    const page = pick(await platformPages(r.s, r.spaceId, outbox), this.at);
    if (page === undefined) return;
    const t = token(m, 'p');
    const res = await r.s.request('POST', `/v1/spaces/${r.spaceId}/change-requests/${outbox}/content?compat=false`, {
      body: {
        changes: [
          { operation: 'update_page', page: page.id, document: { markdown: `# ${page.title}\n\n${page.markdown.trim()}\n\n${t}\n` } },
        ],
      },
    });
    if (res.status === 200) m.live.add(t);
  }
}

export class PlatformAdd extends Step {
  toString() {
    return 'platform adds a page';
  }
  async act(m: Model, r: Real) {
    const t = token(m, 'p');
    await editMain(r.s, r.spaceId, [
      { operation: 'insert_page', title: `Page Q${m.n}`, document: { markdown: `# Page Q${m.n}\n\n${t}\n` } },
    ]);
    m.live.add(t);
  }
}

export class PlatformDelete extends Step {
  constructor(readonly at: number) {
    super();
  }
  toString() {
    return `platform deletes page #${this.at}`;
  }
  async act(m: Model, r: Real) {
    const page = await platformPage(r, this.at, true);
    if (page === undefined) return;
    // A page goes with the pages under it.
    const gone = (await platformPages(r.s, r.spaceId)).filter((p) => p.id === page.id || p.ancestors.includes(page.id));
    await editMain(r.s, r.spaceId, [{ operation: 'delete_page', page: page.id }]);
    for (const p of gone) {
      for (const t of tokensOf(p.markdown)) m.live.delete(t);
      m.ids.delete(p.title);
    }
  }
}

// ----- syncs -----

export class Pull extends Step {
  toString() {
    return 'pull';
  }
  async act(_m: Model, r: Real) {
    await pull(r.client, r.dir);
  }
}

/** `docsync sync`, then main's change request merged: with no conflict and nothing left out, folder and platform must agree. */
export class SyncAndMerge extends Step {
  toString() {
    return "sync, then merge main's change request";
  }
  async act(m: Model, r: Real) {
    const pass = await syncPass(r.client, r.dir);
    // A branch reset past a pull is refused (it would undo the platform's changes): the writer
    // does what the message says and merges them back; a conflict there is resolved later.
    if (pass.failed.some((f) => f.code === 'would-undo-remote')) {
      try {
        git(r.dir, 'merge', '-q', '--no-edit', 'refs/docsync/remote/main');
      } catch {
        await new WriterResolve().act(m, r);
      }
      return;
    }
    let clean =
      pass.failed.length === 0 &&
      pass.conflicts.length === 0 &&
      pass.pulled.every((p) => (p.kept ?? []).length === 0) &&
      pass.pushed.every((p) => p.skipped.length === 0 && p.unsentLinks.length === 0 && p.undeletableFiles.length === 0);
    if ((await readState(r.dir)).branches.main?.outbox !== undefined) {
      const merged = await mergePushed(r.client, r.dir, 'main');
      clean &&= merged.kind === 'merged' && merged.pulled.every((p) => p.conflicts.length === 0 && (p.kept ?? []).length === 0);
    }
    const tree = await workingTree(r.dir);
    if (clean && ![...tree.values()].some(hasMarkers) && (await readState(r.dir)).branches.main?.outbox === undefined)
      await checkSame(r, this.toString());
  }
}

const at = fc.nat({ max: 20 });

/** Every step either actor can take, with syncs in between. */
export const steps: fc.Arbitrary<Cmd>[] = [
  at.map((i) => new WriterAppend(i)),
  fc.tuple(at, at).map(([i, j]) => new WriterReplace(i, j)),
  fc.boolean().map((f) => new WriterAdd(f)),
  at.map((i) => new WriterDelete(i)),
  fc.tuple(at, fc.boolean()).map(([i, f]) => new WriterRename(i, f)),
  fc.tuple(at, at).map(([i, j]) => new WriterReorder(i, j)),
  fc.tuple(at, at).map(([i, j]) => new WriterLink(i, j)),
  fc.constant(new WriterResolve()),
  at.map((i) => new WriterBranch(i)),
  at.map((i) => new WriterDeleteBranch(i)),
  fc.constant(new WriterReset()),
  at.map((i) => new WriterMergeMain(i)),
  at.map((i) => new PlatformSlug(i)),
  fc.tuple(at, at).map(([i, j]) => new PlatformMove(i, j)),
  at.map((i) => new PlatformReview(i)),
  at.map((i) => new PlatformAppend(i)),
  fc.tuple(at, at).map(([i, j]) => new PlatformReplace(i, j)),
  fc.constant(new PlatformAdd()),
  at.map((i) => new PlatformDelete(i)),
  // Syncs weigh as much as a quarter of the steps: edits meet each other between them.
  ...[1, 2].map(() => fc.constant(new Pull())),
  ...[1, 2, 3].map(() => fc.constant(new SyncAndMerge())),
];
