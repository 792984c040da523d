import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import {
  CreateTranslationSettings,
  DEFAULT_LIST_LIMIT,
  DocsyncError,
  Id,
  ListOf,
  ListQuery,
  PutTranslationSettings,
  TranslationParams,
  TranslationSettings,
  isRole,
  roleAtLeast,
  type Role,
} from '../../model/index.js';
import { memberRole, requireOrgRole } from '../auth/access.js';
import {
  deleteTranslation,
  findTranslation,
  insertTranslation,
  listTranslations,
  updateTranslation,
  type TranslationRow,
} from '../store/translations.js';
import { checkLanguages } from '../translations/languages.js';
import { collectPage, pageRequest } from '../util/cursor.js';
import { apiUrl, baseUrl } from '../urls.js';

const OrgParams = Type.Object({ organizationId: Id });

function translationView(row: TranslationRow, role: Role | null, base: string): TranslationSettings {
  return {
    object: 'translation-settings',
    id: row.id,
    title: row.title,
    languages: JSON.parse(row.languages) as string[],
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    permissions: { view: roleAtLeast(role, 'read'), edit: roleAtLeast(role, 'create') },
    urls: { location: apiUrl(base, `/orgs/${row.org_id}/translations/${row.id}`) },
  };
}

/** Translation settings of an organization (seed Part 2): a title and the languages to translate into. */
export const translationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, clock } = app.ctx;

  async function caller(request: FastifyRequest, orgId: string, action: 'translation.view' | 'translation.manage'): Promise<Role | null> {
    const member = await memberRole(db, orgId, request.caller.id);
    requireOrgRole(member, action, orgId);
    return member && isRole(member.role) ? member.role : null;
  }
  async function load(orgId: string, id: string): Promise<TranslationRow> {
    const row = await findTranslation(db, orgId, id);
    if (!row) throw new DocsyncError('not_found', `translation settings ${id} not found in organization ${orgId}`);
    return row;
  }

  app.get(
    '/orgs/:organizationId/translations',
    { schema: { params: OrgParams, querystring: ListQuery, response: { 200: ListOf(TranslationSettings) } } },
    async (request) => {
      const { organizationId } = request.params;
      const role = await caller(request, organizationId, 'translation.view');
      const base = baseUrl(request);
      return collectPage({
        request: pageRequest(request.query, DEFAULT_LIST_LIMIT),
        fetch: (after, n) => listTranslations(db, organizationId, after, n),
        key: (row) => [row.created_at, row.id],
        accept: (row) => translationView(row, role, base),
      });
    },
  );

  app.post(
    '/orgs/:organizationId/translations',
    { schema: { params: OrgParams, body: CreateTranslationSettings, response: { 201: TranslationSettings } } },
    async (request, reply) => {
      const { organizationId } = request.params;
      const role = await caller(request, organizationId, 'translation.manage');
      const languages = checkLanguages(request.body.languages ?? [], 'body.languages');
      const row = await insertTranslation(db, { orgId: organizationId, title: request.body.title, languages }, clock.now().toISOString());
      const view = translationView(row, role, baseUrl(request));
      void reply.status(201).header('location', view.urls.location);
      return view;
    },
  );

  app.get(
    '/orgs/:organizationId/translations/:translationSettingsId',
    { schema: { params: TranslationParams, response: { 200: TranslationSettings } } },
    async (request) => {
      const { organizationId, translationSettingsId } = request.params;
      const role = await caller(request, organizationId, 'translation.view');
      return translationView(await load(organizationId, translationSettingsId), role, baseUrl(request));
    },
  );

  app.put(
    '/orgs/:organizationId/translations/:translationSettingsId',
    { schema: { params: TranslationParams, body: PutTranslationSettings, response: { 200: TranslationSettings } } },
    async (request) => {
      const { organizationId, translationSettingsId } = request.params;
      const role = await caller(request, organizationId, 'translation.manage');
      await load(organizationId, translationSettingsId);
      const { title, languages } = request.body;
      await updateTranslation(
        db,
        translationSettingsId,
        { title, ...(languages !== undefined ? { languages: checkLanguages(languages, 'body.languages') } : {}) },
        clock.now().toISOString(),
      );
      return translationView(await load(organizationId, translationSettingsId), role, baseUrl(request));
    },
  );

  app.delete(
    '/orgs/:organizationId/translations/:translationSettingsId',
    { schema: { params: TranslationParams } },
    async (request, reply) => {
      const { organizationId, translationSettingsId } = request.params;
      await caller(request, organizationId, 'translation.manage');
      await load(organizationId, translationSettingsId);
      await deleteTranslation(db, translationSettingsId);
      return reply.status(205).send();
    },
  );
};
