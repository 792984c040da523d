import type { Generated } from 'kysely';
import type {
  IntegrationInstallationsTable,
  IntegrationTargetsTable,
  IntegrationsTable,
  OpenApiSpecVersionsTable,
  OpenApiSpecsTable,
  SamlAssertionsTable,
  SamlProvidersTable,
  SamlRequestsTable,
  TranslationSettingsTable,
} from './part2-tables.js';

/**
 * Table shapes as Kysely sees them. Timestamps are ISO 8601 UTC strings (sortable as text on both
 * dialects); booleans are 0/1 integers; JSON is text. One representation keeps the SQLite and
 * PostgreSQL paths identical.
 */
export interface UsersTable {
  id: string;
  email: string;
  display_name: string;
  photo_url: string | null;
  created_at: string;
}

export interface TokensTable {
  id: string;
  user_id: string;
  hash: string;
  label: string | null;
  created_at: string;
  revoked_at: string | null;
  /** Installation tokens expire (migration 0016); API tokens do not (null). */
  expires_at: string | null;
}

export interface OrganizationsTable {
  id: string;
  title: string;
  created_at: string;
  email_domains: string;
  hostname: string | null;
  type: string;
  use_case: string | null;
  community_type: string | null;
  default_role: string | null;
  default_content: string | null;
  sso: number;
  ai: number;
  invite_links: number;
  plan: string;
  logo: string | null;
}

export interface MembersTable {
  org_id: string;
  user_id: string;
  role: string | null;
  joined_at: string;
  last_seen_at: string | null;
  disabled: number;
  sso: number;
}

export interface CollectionsTable {
  id: string;
  org_id: string;
  parent_id: string | null;
  title: string;
  description: string | null;
  default_level: string;
  position: number;
  created_at: string;
  updated_at: string;
}

export interface SpacesTable {
  id: string;
  org_id: string;
  parent_id: string | null;
  title: string;
  emoji: string;
  visibility: string;
  edit_mode: string;
  default_level: string;
  revision_id: string;
  position: number;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
  comments: number;
  change_requests: number;
  change_requests_open: number;
  change_requests_draft: number;
}

export interface RevisionsTable {
  id: string;
  space_id: string;
  /** `edits`, `merge`, `update` or `rollback`. */
  type: string;
  /** JSON array of parent revision ids. */
  parents: string;
  /** Blob holding the revision's ContentTree as canonical JSON. */
  tree_sha: string;
  /** The change request the revision was made in; null on the space's main line. */
  change_request_id: string | null;
  /** For a `merge` revision: the change request merged. */
  merged_from: string | null;
  created_by: string | null;
  created_at: string;
}

export interface BlobsTable {
  sha256: string;
  size: number;
  data: Uint8Array;
}

export interface ChangeRequestsTable {
  id: string;
  space_id: string;
  number: number;
  subject: string;
  status: string;
  created_by: string;
  created_at: string;
  updated_at: string;
  /** Head revision of the change request. */
  revision_id: string;
  revision_initial: string;
  revision_merged_ancestor: string | null;
  revision_merged: string | null;
  merged_by: string | null;
  merged_at: string | null;
  agent_task_id: string | null;
  comments: Generated<number>;
}

export interface JobsTable {
  id: string;
  kind: string;
  payload: string;
  run_at: string;
  locked_until: string | null;
  attempts: Generated<number>;
  last_error: string | null;
  created_at: string;
}

export interface CommentsTable {
  id: string;
  space_id: string;
  /** Null for a comment on the space's main content. */
  change_request_id: string | null;
  /** The head the comment was posted on. */
  revision_id: string;
  page_id: string | null;
  /** sha256 of the page's document when posted ('' for an empty page); null without a page. */
  page_document: string | null;
  node_id: string | null;
  node_preview: string | null;
  /** Markdown. */
  body: string;
  posted_by: string;
  posted_at: string;
  edited_at: string | null;
  /** `open` or `resolved`. */
  status: string;
  resolved_at: string | null;
  resolved_by: string | null;
}

export interface CommentRepliesTable {
  id: string;
  comment_id: string;
  body: string;
  posted_by: string;
  posted_at: string;
  edited_at: string | null;
}

export interface CommentReactionsTable {
  /** The comment's or the reply's id. */
  subject_id: string;
  emoji: string;
  user_id: string;
  reacted_at: string;
}

export interface TeamsTable {
  id: string;
  org_id: string;
  title: string;
  created_at: string;
}

export interface TeamMembersTable {
  team_id: string;
  user_id: string;
  /** `owner` or `member`. */
  role: string;
  added_at: string;
}

export interface ContentPermissionsTable {
  org_id: string;
  content_id: string;
  /** `space` or `collection`. */
  content_kind: string;
  /** `user` or `team`. */
  principal_kind: string;
  principal_id: string;
  role: string;
  created_at: string;
}

export interface LinkInvitesTable {
  id: string;
  org_id: string;
  /** The organization role the invite gives; null for guests. */
  role: string | null;
  created_by: string | null;
  created_at: string;
}

export interface OrgKeysTable {
  org_id: string;
  kid: string;
  private_jwk: string;
  public_jwk: string;
  created_at: string;
}

/** Facts of a stored document (content/markdown/document-facts.ts) as JSON, by the blob's sha256. */
export interface DocumentFactsTable {
  sha256: string;
  /** `FACTS_VERSION` when derived: rows of another version are derived again. */
  version: number;
  facts: string;
}

/** A rendered PDF (a blob) per revision and scope (`all`, `page:<id>`, `only:<id>`). */
export interface PdfRendersTable {
  revision_id: string;
  scope: string;
  blob: string;
}

export interface Database {
  openapi_specs: OpenApiSpecsTable;
  openapi_spec_versions: OpenApiSpecVersionsTable;
  translation_settings: TranslationSettingsTable;
  saml_providers: SamlProvidersTable;
  saml_requests: SamlRequestsTable;
  saml_assertions: SamlAssertionsTable;
  integrations: IntegrationsTable;
  integration_installations: IntegrationInstallationsTable;
  integration_targets: IntegrationTargetsTable;
  document_facts: DocumentFactsTable;
  pdf_renders: PdfRendersTable;
  users: UsersTable;
  tokens: TokensTable;
  organizations: OrganizationsTable;
  members: MembersTable;
  collections: CollectionsTable;
  spaces: SpacesTable;
  revisions: RevisionsTable;
  blobs: BlobsTable;
  change_requests: ChangeRequestsTable;
  jobs: JobsTable;
  sites: SitesTable;
  site_section_groups: SiteSectionGroupsTable;
  site_sections: SiteSectionsTable;
  site_spaces: SiteSpacesTable;
  site_share_links: SiteShareLinksTable;
  comments: CommentsTable;
  comment_replies: CommentRepliesTable;
  comment_reactions: CommentReactionsTable;
  teams: TeamsTable;
  team_members: TeamMembersTable;
  content_permissions: ContentPermissionsTable;
  link_invites: LinkInvitesTable;
  org_keys: OrgKeysTable;
  events: EventsTable;
  event_horizon: EventHorizonTable;
  rate_limit_windows: RateLimitWindowsTable;
}

/** One change of a space, in commit order (migration 0012, server/events/). */
export interface EventsTable {
  id: Generated<number>;
  space_id: string;
  /** `revision`, `change-request` or `comment` (model/space-event.ts). */
  type: string;
  change_request_id: string | null;
  change_request_number: number | null;
  status: string | null;
  revision_id: string | null;
  comment_id: string | null;
  reply_id: string | null;
  created_at: string;
}

/** How far events were purged (migration 0013, server/jobs/purge-events.ts); one row, id `events`. */
export interface EventHorizonTable {
  id: string;
  /** The largest event id deleted: bigint on PostgreSQL (read as a string there). */
  horizon: number | string;
  purged_at: string;
}

/** Stored form of a content default level: `inherit`, a role, or `none` for null. */
export const NO_DEFAULT_LEVEL = 'none';

export interface SitesTable {
  id: string;
  org_id: string;
  type: string;
  title: string;
  visibility: string;
  basename: string | null;
  hostname: string | null;
  proxy_origin: string | null;
  published: number;
  adaptive_content: number;
  agents_context: string;
  /** The default section; null when the site has no sections. */
  default_section_id: string | null;
  /** The default site space at the root (site without sections). */
  default_site_space_id: string | null;
  /** JSON text of the visitor claims schema; null until one is set. */
  adaptive_schema: string | null;
  adaptive_schema_updated_at: string | null;
  created_at: string;
}

export interface SiteSectionGroupsTable {
  id: string;
  site_id: string;
  title: string;
  icon: string | null;
  /** Shares one order with the sections at the root of the site. */
  position: number;
  created_at: string;
}

export interface SiteSectionsTable {
  id: string;
  site_id: string;
  group_id: string | null;
  title: string;
  path: string;
  condition: string | null;
  icon: string | null;
  description: string | null;
  default_site_space_id: string | null;
  position: number;
  created_at: string;
}

export interface SiteSpacesTable {
  id: string;
  site_id: string;
  /** Null at the root of a site without sections. */
  section_id: string | null;
  space_id: string;
  path: string;
  condition: string | null;
  position: number;
  created_at: string;
}

export interface SiteShareLinksTable {
  id: string;
  site_id: string;
  key: string;
  name: string;
  active: number;
  created_at: string;
}

/** Requests one caller made in one fixed window (migration 0015, server/rate-limit/). */
export interface RateLimitWindowsTable {
  key: string;
  /** Epoch milliseconds: bigint on PostgreSQL (read as a string there). */
  window_start: number | string;
  count: number;
}
