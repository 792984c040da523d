import { Type, type Static } from '@sinclair/typebox';
import { Emoji } from './common.js';
import { ChangeRequest } from './change-request.js';
import { RevisionFile } from './file.js';
import { PAGE_TYPES } from './page.js';
import { RevisionReusableContent } from './revision.js';

/**
 * The published change-request content batch (`POST .../change-requests/{id}/content`): one
 * tagged union on `operation`. Every object is closed, so an unknown field is a 400 naming it.
 */
export const MAX_BATCH_CHANGES = 50;
export const MAX_BATCH_FILES = 20;
export const MAX_FILE_NAME = 256;
export const MAX_FILE_URL = 2048;
/** Largest decoded `base64` upload (published: "max 1MB"). */
export const MAX_BASE64_BYTES = 1024 * 1024;

const closed = { additionalProperties: false } as const;

/** `{markdown}`, `{document: JSONDocument}` or `{}` (an empty page). */
export const ChangeDocument = Type.Union([
  Type.Object({ markdown: Type.String() }, closed),
  Type.Object(
    {
      document: Type.Object(
        {
          object: Type.Literal('document'),
          data: Type.Optional(Type.Object({}, { additionalProperties: true })),
          nodes: Type.Array(Type.Unknown()),
        },
        { additionalProperties: true },
      ),
    },
    closed,
  ),
  Type.Object({}, closed),
]);
export type ChangeDocument = Static<typeof ChangeDocument>;

/** Longest page link title (published RevisionPageBase: 1 to 100 characters). */
export const MAX_LINK_TITLE = 100;
/** Longest `href` of a link page. */
export const MAX_LINK_HREF = 2048;

/**
 * RevisionPageUpdate: page metadata settable on insert_page and update_page. `linkTitle` is a
 * docsync extension (docs/api.md): the published spec returns it on pages but has no way to set it.
 */
const pageMetadata = {
  title: Type.Optional(Type.String({ minLength: 1 })),
  slug: Type.Optional(Type.String({ minLength: 0, maxLength: 100 })),
  emoji: Type.Optional(Emoji),
  icon: Type.Optional(Type.String({ maxLength: 50 })),
  description: Type.Optional(Type.String()),
  hidden: Type.Optional(Type.Boolean()),
  noIndex: Type.Optional(Type.Boolean()),
  noRobotsIndex: Type.Optional(Type.Boolean()),
  condition: Type.Optional(Type.String()),
  linkTitle: Type.Optional(Type.String({ maxLength: MAX_LINK_TITLE })),
};
export const PAGE_METADATA_FIELDS = Object.keys(pageMetadata) as (keyof typeof pageMetadata)[];

export type InsertedPageType = (typeof PAGE_TYPES)[number];

/** An enum, not a union of literals, so a wrong value is reported as one problem naming the field. */
const PageTypeField = Type.Unsafe<InsertedPageType>({ type: 'string', enum: [...PAGE_TYPES] });
/** Where a link page points; checked to be an absolute URL by the content layer, which names the change. */
const Href = Type.String({ minLength: 1, maxLength: MAX_LINK_HREF });

/**
 * Extension (`computed-pages`): a computed page's source, as the published RevisionPageComputed
 * has it (`{type: "builtin:openapi", props, dependencies}`); other keys are kept.
 */
export const ComputedSource = Type.Object({ type: Type.String({ minLength: 1, maxLength: 200 }) }, { additionalProperties: true });
/** Largest computed source, as JSON. */
export const MAX_COMPUTED_SOURCE = 16 * 1024;

/** Longest `gitPath`. */
export const MAX_GIT_PATH = 1024;
/**
 * Extension (docs/api.md, `git-path`): the document page's file in the Git Sync folder it was
 * pushed from, when not the path rules' (the published spec reads it back as `git.path`).
 * Checked by the content layer (a relative `.md` path outside `.gitbook/`), which names the change.
 */
const GitPath = Type.String({ minLength: 1, maxLength: MAX_GIT_PATH });

/** Longest `frontMatter`. */
export const MAX_FRONT_MATTER = 16 * 1024;
/**
 * Extension (docs/api.md, `front-matter`): the document page's front matter YAML as its Git Sync
 * file holds it (between the `---` lines), kept so the file is written back as it was. Checked
 * by the content layer (a YAML mapping), which names the change.
 */
const FrontMatterText = Type.String({ maxLength: MAX_FRONT_MATTER });

/**
 * `type` (default `document`) and `href` are docsync extensions (docs/api.md): the published
 * endpoint only makes documents, so groups and link pages could not be written.
 */
export const InsertPageChange = Type.Object(
  {
    operation: Type.Literal('insert_page'),
    document: ChangeDocument,
    into: Type.Optional(Type.String()),
    at: Type.Optional(Type.Integer({ minimum: 0 })),
    ref: Type.Optional(Type.String({ minLength: 1 })),
    type: Type.Optional(PageTypeField),
    href: Type.Optional(Href),
    gitPath: Type.Optional(GitPath),
    computed: Type.Optional(ComputedSource),
    frontMatter: Type.Optional(FrontMatterText),
    titleHeading: Type.Optional(Type.Boolean()),
    ...pageMetadata,
  },
  closed,
);

export const UpdatePageChange = Type.Object(
  {
    operation: Type.Literal('update_page'),
    page: Type.String(),
    document: Type.Optional(ChangeDocument),
    into: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    at: Type.Optional(Type.Integer({ minimum: 0 })),
    /** Extension: a link page's new target. A page's type never changes, so there is no `type`. */
    href: Type.Optional(Href),
    /** Extension: the page's file (see insert_page); null goes back to the path rules' file. */
    gitPath: Type.Optional(Type.Union([GitPath, Type.Null()])),
    /** Extension: a computed page's new source. */
    computed: Type.Optional(ComputedSource),
    /** Extension: the page's front matter as written (see insert_page); null or "" forgets it. */
    frontMatter: Type.Optional(Type.Union([FrontMatterText, Type.Null()])),
    /** Extension: `false` when the page's file has no title heading (see insert_page); `true` gives it one again. */
    titleHeading: Type.Optional(Type.Boolean()),
    ...pageMetadata,
  },
  closed,
);

export const DeletePageChange = Type.Object({ operation: Type.Literal('delete_page'), page: Type.String() }, closed);

export const RevertPageChange = Type.Object(
  {
    operation: Type.Literal('revert_page'),
    page: Type.String(),
    revision: Type.Optional(Type.String()),
    block: Type.Optional(Type.Array(Type.String())),
  },
  closed,
);

/** Exactly one of `url` and `base64` (checked by the server, which names the item). */
export const InsertFileItem = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: MAX_FILE_NAME }),
    ref: Type.Optional(Type.String({ minLength: 1 })),
    contentType: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
    url: Type.Optional(Type.String({ format: 'uri', maxLength: MAX_FILE_URL })),
    base64: Type.Optional(Type.String()),
  },
  closed,
);
export type InsertFileItem = Static<typeof InsertFileItem>;

export const InsertFilesChange = Type.Object(
  { operation: Type.Literal('insert_files'), files: Type.Array(InsertFileItem, { minItems: 1, maxItems: MAX_BATCH_FILES }) },
  closed,
);

/** Extension (docs/api.md): removes a file from the revision. By id, as delete_page takes a page id. */
export const DeleteFileChange = Type.Object({ operation: Type.Literal('delete_file'), file: Type.String({ minLength: 1 }) }, closed);

/** Longest file name of a reusable content in `.gitbook/includes/`. */
export const MAX_INCLUDE_NAME = 255;

/** Checked by the content layer (a `.md` name, one path segment), which names the change. */
const IncludeName = Type.String({ minLength: 1, maxLength: MAX_INCLUDE_NAME });
const ReusableContentTitle = Type.String({ minLength: 1 });

/**
 * Extension (docs/api.md): adds a reusable content (`.gitbook/includes/<name>` in the Git Sync
 * layout). `name` is its file there; without it, `slugify(title).md` made unique. `ref` is
 * unique in the batch like page and file refs, and echoed by the order of `insertedReusableContents`.
 */
export const InsertReusableContentChange = Type.Object(
  {
    operation: Type.Literal('insert_reusable_content'),
    title: ReusableContentTitle,
    document: ChangeDocument,
    ref: Type.Optional(Type.String({ minLength: 1 })),
    name: Type.Optional(IncludeName),
  },
  closed,
);

/** Extension (docs/api.md): changes a reusable content's title, body or file name; what is left out stays. */
export const UpdateReusableContentChange = Type.Object(
  {
    operation: Type.Literal('update_reusable_content'),
    reusableContent: Type.String({ minLength: 1 }),
    title: Type.Optional(ReusableContentTitle),
    document: Type.Optional(ChangeDocument),
    name: Type.Optional(IncludeName),
  },
  closed,
);

/** Extension (docs/api.md): removes a reusable content. Pages that embed it keep their markdown as written. */
export const DeleteReusableContentChange = Type.Object(
  { operation: Type.Literal('delete_reusable_content'), reusableContent: Type.String({ minLength: 1 }) },
  closed,
);

/** Most space variables one revision holds. */
export const MAX_VARIABLES = 1000;
/** Longest variable name. */
export const MAX_VARIABLE_NAME = 100;
/** Longest string value (published VariableValue: a string of at most 256 characters). */
export const MAX_VARIABLE_STRING = 256;

/**
 * A variable's value: one schema with a list of types, not a union, so a wrong value is one
 * problem naming the variable; `maxLength` applies to strings only.
 */
const VariableValueField = Type.Unsafe<string | number | boolean>({
  type: ['string', 'number', 'boolean'],
  maxLength: MAX_VARIABLE_STRING,
});

/**
 * Extension (docs/api.md): replaces the revision's space variables (`.gitbook/vars.yaml` in the
 * Git Sync layout) with `variables`; `{}` removes them all. Names are checked by the content
 * layer against {@link variableNameProblem}, which names the variable.
 */
export const SetVariablesChange = Type.Object(
  {
    operation: Type.Literal('set_variables'),
    variables: Type.Record(Type.String(), VariableValueField, { maxProperties: MAX_VARIABLES }),
  },
  closed,
);

/**
 * Why `name` cannot name a space variable, or undefined. GitBook's rule: a letter, then letters,
 * digits and `_` (expressions read variables as `space.vars.<name>`).
 */
export function variableNameProblem(name: string): string | undefined {
  if (name.length > MAX_VARIABLE_NAME) return `is longer than ${MAX_VARIABLE_NAME} characters`;
  if (!/^[A-Za-z][A-Za-z0-9_]*$/.test(name)) return 'must start with a letter and hold only letters, digits and `_`';
  return undefined;
}

/** Longest path of a folder file (`set_git_file`). */
export const MAX_GIT_FILE_PATH = 1024;
/** Largest text of a folder file, in UTF-8 bytes. */
export const MAX_GIT_FILE_BYTES = 1024 * 1024;
/** Most folder files one revision holds. */
export const MAX_GIT_FILES = 1000;

/**
 * Extension (`git-files`, docs/api.md): stores, replaces (`text`) or removes (`null`) a text
 * file of the Git Sync folder that is neither a page, an asset, an include nor the variables:
 * `.gitbook.yaml` as written, a `.md` file SUMMARY.md does not list. The path is checked by
 * {@link gitFilePathProblem}.
 */
export const SetGitFileChange = Type.Object(
  {
    operation: Type.Literal('set_git_file'),
    path: Type.String({ minLength: 1, maxLength: MAX_GIT_FILE_PATH }),
    text: Type.Union([Type.String(), Type.Null()]),
  },
  closed,
);

/**
 * Why `path` cannot name a folder file, or undefined: `.gitbook.yaml`, or a relative `.md` path
 * of plain segments (as an asset name, see `fileNameProblem`) outside any `.gitbook/` folder.
 */
export function gitFilePathProblem(path: string): string | undefined {
  if (path === '.gitbook.yaml') return undefined;
  if (path.length > MAX_GIT_FILE_PATH) return `is longer than ${MAX_GIT_FILE_PATH} characters`;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f-\u009f]/.test(path)) return 'holds a control character';
  if (path.includes('\\')) return 'holds a backslash (use `/` between folders)';
  if (path.startsWith('/') || /^[a-z]:/i.test(path)) return 'is an absolute path';
  const segments = path.split('/');
  if (segments.some((s) => s === '' || s === '.' || s === '..')) return 'has an empty, `.` or `..` path segment';
  if (segments.some((s) => s === '.gitbook'))
    return 'is inside a `.gitbook/` folder (assets, includes and variables have their own operations)';
  if (!/\.md$/i.test(path)) return 'must be `.gitbook.yaml` or end in `.md`';
  return undefined;
}

export const CONTENT_CHANGE_OPERATIONS = [
  'insert_page',
  'update_page',
  'delete_page',
  'revert_page',
  'insert_files',
  'delete_file',
  'set_variables',
  'set_git_file',
  'insert_reusable_content',
  'update_reusable_content',
  'delete_reusable_content',
] as const;

const VARIANTS = [
  InsertPageChange,
  UpdatePageChange,
  DeletePageChange,
  RevertPageChange,
  InsertFilesChange,
  DeleteFileChange,
  SetVariablesChange,
  SetGitFileChange,
  InsertReusableContentChange,
  UpdateReusableContentChange,
  DeleteReusableContentChange,
] as const;
type Variants = Static<(typeof VARIANTS)[number]>;

/**
 * `oneOf` with a discriminator (not TypeBox's `anyOf`), so the validator checks only the variant
 * named by `operation` and reports that variant's first problem instead of "must match a schema
 * in anyOf".
 */
export const ContentChange = Type.Unsafe<Variants>({
  type: 'object',
  required: ['operation'],
  discriminator: { propertyName: 'operation' },
  oneOf: [...VARIANTS],
});
export type InsertPageChange = Static<typeof InsertPageChange>;
export type UpdatePageChange = Static<typeof UpdatePageChange>;
export type DeletePageChange = Static<typeof DeletePageChange>;
export type RevertPageChange = Static<typeof RevertPageChange>;
export type InsertFilesChange = Static<typeof InsertFilesChange>;
export type DeleteFileChange = Static<typeof DeleteFileChange>;
export type SetVariablesChange = Static<typeof SetVariablesChange>;
export type SetGitFileChange = Static<typeof SetGitFileChange>;
export type InsertReusableContentChange = Static<typeof InsertReusableContentChange>;
export type UpdateReusableContentChange = Static<typeof UpdateReusableContentChange>;
export type DeleteReusableContentChange = Static<typeof DeleteReusableContentChange>;
export type ContentChange = Static<typeof ContentChange>;

export const ContentChangeBatch = Type.Object({ changes: Type.Array(ContentChange, { minItems: 1, maxItems: MAX_BATCH_CHANGES }) }, closed);
export type ContentChangeBatch = Static<typeof ContentChangeBatch>;

export const ContentWriteQuery = Type.Object({ compat: Type.Boolean({ default: true }) }, closed);

const PageRef = Type.Object({ object: Type.Literal('page'), id: Type.String(), urls: Type.Object({ location: Type.String() }) });

/** One entry per affected page, in the order the batch first touched it. */
export const ContentChangeOutcome = Type.Union([
  Type.Object({ object: Type.Literal('created_page'), ref: Type.Optional(Type.String()), page: PageRef }),
  Type.Object({ object: Type.Literal('updated_page'), page: PageRef }),
  Type.Object({ object: Type.Literal('deleted_page'), page: Type.String() }),
]);
export type ContentChangeOutcome = Static<typeof ContentChangeOutcome>;

/**
 * The `compat=false` answer: the change request, the affected pages, and the files inserted.
 * `insertedReusableContents` (extension) lists what `insert_reusable_content` made, in order.
 */
export const ContentChangeUpdate = Type.Object({
  changeRequest: ChangeRequest,
  changes: Type.Array(ContentChangeOutcome),
  insertedFiles: Type.Optional(Type.Array(RevisionFile)),
  insertedReusableContents: Type.Optional(Type.Array(RevisionReusableContent)),
});
export type ContentChangeUpdate = Static<typeof ContentChangeUpdate>;

/**
 * The response header by which a docsync server names its extensions beyond the published API,
 * comma-separated, on every answer, so a client can tell it from the hosted API before sending
 * one. Kept beside the batch, which holds most of them, so server and client read one list.
 */
export const EXTENSIONS_HEADER = 'x-docsync-extensions';

/**
 * - `page-types`: insert_page `type: group|link` and `href`;
 * - `link-title`: `linkTitle` on insert_page and update_page;
 * - `set-variables`: the `set_variables` operation;
 * - `replace-files`: insert_files with the name of an existing file replaces it, keeping its id;
 * - `delete-file`: the `delete_file` operation;
 * - `markdown-listing`: `format=markdown` on the pages listing;
 * - `insert-reusable-content`, `update-reusable-content`, `delete-reusable-content`: those operations;
 * - `reusable-content-markdown`: `format=markdown` on reusable content reads;
 * - `git-path`: `gitPath` on insert_page and update_page, read back as the page's `git.path`;
 * - `computed-pages`: insert_page `type: computed` with `computed` (an OpenAPI reference), and
 *   `computed` on update_page;
 * - `space-events`: `GET /v1/spaces/{spaceId}/events` and `GET /v1/orgs/{orgId}/events`, server-sent
 *   events of what changes (model/space-event.ts);
 * - `explicit-layout`: `explicitLayout` on document pages read, the layout options set to their default;
 * - `front-matter`: `frontMatter` on insert_page and update_page and on document pages read, the
 *   page file's front matter as written;
 * - `title-heading`: `titleHeading: false` on insert_page and update_page and on document pages read,
 *   a page file written without its title heading;
 * - `git-files`: the `set_git_file` operation and `gitFiles` on revision reads: `.gitbook.yaml` and
 *   `.md` files SUMMARY.md does not list, kept as written;
 * - `changed-pages`: `GET /v1/spaces/{spaceId}/revisions/{revisionId}/changed-pages?since={revisionId}`,
 *   the pages whose own fields changed between two revisions (model/changed-pages.ts).
 */
export const DOCSYNC_EXTENSIONS = [
  'page-types',
  'link-title',
  'set-variables',
  'replace-files',
  'delete-file',
  'markdown-listing',
  'insert-reusable-content',
  'update-reusable-content',
  'delete-reusable-content',
  'reusable-content-markdown',
  'git-path',
  'computed-pages',
  'space-events',
  'explicit-layout',
  'front-matter',
  'git-files',
  'title-heading',
  'changed-pages',
] as const;
export type DocsyncExtension = (typeof DOCSYNC_EXTENSIONS)[number];
