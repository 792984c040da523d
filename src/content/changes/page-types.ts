import {
  MAX_COMPUTED_SOURCE,
  type ChangeDocument,
  type ContentTree,
  type InsertPageChange,
  type PageType,
  type UpdatePageChange,
} from '../../model/index.js';
import { scriptUrlProblem } from '../../model/index.js';
import { findPage } from '../tree/page-tree.js';
import { isPageGitPath } from '../tree/paths.js';
import { isMapping, loadYaml } from '../markdown/yaml.js';
import { fail } from './types.js';

/**
 * The tree rules of the published RevisionPage variants, which the batch must keep since it can
 * write groups and link pages: a group sits only at the top level; groups and link pages have no
 * document; a link page has no subpages; each type holds only its own fields. Title, emoji, icon,
 * hidden and condition are on every type.
 */
const HELD_BY = {
  slug: ['document', 'group'],
  description: ['document'],
  noIndex: ['document', 'group'],
  noRobotsIndex: ['document', 'group'],
  linkTitle: ['document'],
  href: ['link'],
  gitPath: ['document'],
  computed: ['computed'],
  frontMatter: ['document'],
  titleHeading: ['document'],
} as const satisfies Record<string, readonly PageType[]>;

const NAMES: Record<PageType, string> = { document: 'document pages', group: 'groups', link: 'link pages', computed: 'computed pages' };

type TypedFields = Pick<InsertPageChange | UpdatePageChange, keyof typeof HELD_BY>;

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * A link page's target to a section of a page of the space, as a Git Sync SUMMARY.md writes it
 * (`formatting/inline.md#buttons`, relative to the SUMMARY.md): kept as written.
 */
const PAGE_ANCHOR = /^(?![a-z][a-z0-9+.-]*:|\/)[^#\s]+\.md#\S*$/i;

/** Why `href` cannot be a link page's target, or undefined: an absolute URL, or a page's anchor. */
export function hrefProblem(href: string): string | undefined {
  if (CONTROL.test(href)) return 'must not contain control characters';
  if (PAGE_ANCHOR.test(href)) return undefined;
  const script = scriptUrlProblem(href);
  if (script) return script;
  let ok = /^[a-z][a-z0-9+.-]*:/i.test(href);
  try {
    new URL(href);
  } catch {
    ok = false;
  }
  return ok
    ? undefined
    : `must be an absolute URL with a scheme (https://...) or a section of a page (page.md#section), got ${JSON.stringify(href)}`;
}

/** Refuses a field the page's type does not hold, and a bad `href`; names the field. */
export function checkTypedFields(type: PageType, change: TypedFields): void {
  for (const [field, types] of Object.entries(HELD_BY) as [keyof typeof HELD_BY, readonly PageType[]][]) {
    if (change[field] !== undefined && !types.includes(type)) {
      fail(`${field}: ${NAMES[type]} have no ${field} (only ${types.map((t) => NAMES[t]).join(' and ')} do)`);
    }
  }
  if (change.href !== undefined) {
    const problem = hrefProblem(change.href);
    if (problem) fail(`href ${problem}`);
  }
  if (change.computed !== undefined && JSON.stringify(change.computed).length > MAX_COMPUTED_SOURCE) {
    fail(`computed: the source is longer than ${MAX_COMPUTED_SOURCE} characters as JSON`);
  }
  if (typeof change.frontMatter === 'string' && change.frontMatter !== '') {
    const read = loadYaml(change.frontMatter);
    if (!read.ok || !isMapping(read.value ?? {}))
      fail(`frontMatter must be a YAML mapping (\`key: value\` lines)${read.ok ? '' : `: ${read.reason}`}`);
  }
  if (typeof change.gitPath === 'string' && !isPageGitPath(change.gitPath)) {
    fail(
      `gitPath must be a relative path to a .md file outside .gitbook/ (plain segments, no \`..\`), and not SUMMARY.md at the top, got ${JSON.stringify(change.gitPath)}`,
    );
  }
}

/** `{}`, or a document with nothing in it: what a group or link page may be sent. */
function isEmptyDocument(document: ChangeDocument): boolean {
  if ('markdown' in document) return document.markdown.trim() === '';
  if ('document' in document) return document.document.nodes.length === 0;
  return true;
}

/** Groups and link pages have no document; an empty one is accepted so `document: {}` works. */
export function checkNoDocument(type: PageType, document: ChangeDocument | undefined): void {
  if (type !== 'document' && document !== undefined && !isEmptyDocument(document)) {
    fail(`document: ${NAMES[type]} have no document; send \`document: {}\``);
  }
}

/** `parentId` can hold a page of `type`: it exists, is not a link page, and groups stay on top. */
export function checkParent(tree: ContentTree, type: PageType, parentId: string | null): void {
  if (parentId === null) return;
  if (type === 'group') fail('into: groups are only at the top level');
  const parent = findPage(tree.pages, parentId);
  if (!parent) fail(`into: page ${parentId} not found`);
  if (parent?.type === 'link') fail(`into: page ${parentId} is a link page, which has no subpages`);
  if (parent?.type === 'computed') fail(`into: page ${parentId} is a computed page, whose subpages are generated`);
}
