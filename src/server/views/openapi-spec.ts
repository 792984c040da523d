import {
  roleAtLeast,
  type OpenAPIErrorCode,
  type OpenAPIErrorObject,
  type OpenAPIProcessingState,
  type OpenAPISpec,
  type OpenAPISpecContent,
  type OpenAPISpecVersion,
  type Role,
} from '../../model/index.js';
import type { OpenApiSpecRow, OpenApiSpecVersionRow } from '../store/openapi-specs.js';
import { apiUrl, appUrl } from '../urls.js';

const specPath = (orgId: string, slug: string) => `/orgs/${orgId}/openapi/${slug}`;

export function openApiSpecView(row: OpenApiSpecRow, role: Role | null, base: string): OpenAPISpec {
  return {
    object: 'openapi-spec',
    id: row.id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    slug: row.slug,
    ...(row.source_url !== null ? { sourceURL: row.source_url } : {}),
    processingState: row.processing_state as OpenAPIProcessingState,
    visibility: 'private',
    ...(row.last_version !== null ? { lastVersion: row.last_version } : {}),
    ...(row.last_processed_at !== null ? { lastProcessedAt: row.last_processed_at } : {}),
    ...(row.last_error_code !== null ? { lastProcessErrorCode: row.last_error_code as OpenAPIErrorCode } : {}),
    ...(row.last_errors !== null ? { lastProcessedErrors: JSON.parse(row.last_errors) as OpenAPIErrorObject[] } : {}),
    lastProcessedErrorCount: row.last_error_count,
    permissions: { view: roleAtLeast(role, 'read'), edit: roleAtLeast(role, 'create') },
    urls: { location: apiUrl(base, specPath(row.org_id, row.slug)), app: appUrl(base, specPath(row.org_id, row.slug)) },
  };
}

const versionPath = (spec: OpenApiSpecRow, id: string) => `${specPath(spec.org_id, spec.slug)}/versions/${id}`;

/** Where a version can be read: its source URL, or (uploaded as text) its content on this API. */
const versionUrl = (spec: OpenApiSpecRow, row: OpenApiSpecVersionRow, base: string) =>
  row.source_url ?? apiUrl(base, `${versionPath(spec, row.id)}/content`);

export function openApiSpecVersionView(spec: OpenApiSpecRow, row: OpenApiSpecVersionRow, base: string): OpenAPISpecVersion {
  return {
    object: 'openapi-spec-version',
    id: row.id,
    createdAt: row.created_at,
    url: versionUrl(spec, row, base),
    urls: { location: apiUrl(base, versionPath(spec, row.id)) },
  };
}

export function openApiSpecContentView(spec: OpenApiSpecRow, row: OpenApiSpecVersionRow, base: string): OpenAPISpecContent {
  const url = versionUrl(spec, row, base);
  return {
    filesystem: { entry: row.entry, files: JSON.parse(row.filesystem) as Record<string, unknown> },
    url,
    urls: { source: url, public: null },
  };
}
