/** Table shapes of migration 0010 (OpenAPI specs, translations, SAML, integrations). */

export interface OpenApiSpecsTable {
  id: string;
  org_id: string;
  slug: string;
  source_url: string | null;
  source_text: string | null;
  /** `pending`, `progress` or `complete` (the published OpenAPISpecProcessingState). */
  processing_state: string;
  last_version: string | null;
  last_processed_at: string | null;
  /** `FETCH_TIMEOUT`, `FETCH_ERROR` or `PARSE_ERROR`; null after a successful processing. */
  last_error_code: string | null;
  /** JSON: `[{message, code?}]`, at most the first 20. */
  last_errors: string | null;
  last_error_count: number;
  created_at: string;
  updated_at: string;
}

export interface OpenApiSpecVersionsTable {
  id: string;
  spec_id: string;
  digest: string;
  source_url: string | null;
  /** The path of the entry document inside `filesystem`. */
  entry: string;
  /** JSON: path (relative to the entry's folder) to the file's text. */
  filesystem: string;
  created_at: string;
}

export interface TranslationSettingsTable {
  id: string;
  org_id: string;
  title: string;
  /** JSON array of BCP 47 tags. */
  languages: string;
  created_at: string;
  updated_at: string;
}

export interface SamlProvidersTable {
  id: string;
  org_id: string;
  label: string;
  entity_id: string | null;
  certificate: string | null;
  sso_url: string | null;
  default_team: string | null;
  default_role: string | null;
  created_at: string;
}

export interface SamlRequestsTable {
  id: string;
  provider_id: string;
  value: string;
  created_at: string;
}

export interface SamlAssertionsTable {
  provider_id: string;
  assertion_id: string;
  expires_at: string;
}

export interface IntegrationsTable {
  name: string;
  owner_org: string;
  version: number;
  title: string;
  target: string;
  visibility: string;
  /** JSON: every other field of the publish body but the script, icon, images and secrets. */
  definition: string;
  script: string;
  /** Blob id (sha256) of the icon. */
  icon: string | null;
  /** JSON array of blob ids. */
  preview_images: string;
  /** AES-256-GCM ciphertext of the JSON map (integration-secrets.ts). */
  secrets: string | null;
  created_at: string;
  updated_at: string;
}

export interface IntegrationInstallationsTable {
  id: string;
  integration: string;
  org_id: string;
  /** JSON array of strings. */
  external_ids: string;
  /** JSON object. */
  configuration: string;
  /** `all` or `selected` (migration 0016). */
  space_selection: string;
  site_selection: string;
  created_at: string;
  updated_at: string;
}

/** A space or site an installation is installed on (migration 0016). */
export interface IntegrationTargetsTable {
  installation_id: string;
  /** `space` or `site`. */
  kind: string;
  target_id: string;
  /** JSON array of strings. */
  external_ids: string;
  /** JSON object. */
  configuration: string;
  created_at: string;
  updated_at: string;
}
