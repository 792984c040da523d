import { Type, type Static } from '@sinclair/typebox';
import { Id, Timestamp, Uri } from './common.js';

/** The published spec's translation languages (api-gaps 2.2); any other BCP 47 tag is accepted too. */
export const TRANSLATION_LANGUAGES = [
  'en',
  'fr',
  'de',
  'es',
  'it',
  'pt',
  'pt-br',
  'ru',
  'ja',
  'zh',
  'zh-tw',
  'yue',
  'ko',
  'ar',
  'hi',
  'nl',
  'pl',
  'tr',
  'sv',
  'no',
  'da',
  'fi',
  'el',
  'cs',
  'hu',
  'ro',
  'th',
  'vi',
  'id',
  'ms',
  'he',
  'uk',
  'sk',
  'bg',
  'hr',
  'lt',
  'lv',
  'et',
  'sl',
] as const;

export const TranslationTitle = Type.String({ minLength: 1, maxLength: 100 });
/** BCP 47 tags (checked with bcp-47 by the server), each at most once. */
export const TranslationLanguages = Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 100 });

/** Translation settings of an organization (object `translation-settings`, seed Part 2). */
export const TranslationSettings = Type.Object({
  object: Type.Literal('translation-settings'),
  id: Type.String(),
  title: Type.String(),
  languages: Type.Array(Type.String()),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  permissions: Type.Object({ view: Type.Boolean(), edit: Type.Boolean() }),
  urls: Type.Object({ location: Uri }),
});
export type TranslationSettings = Static<typeof TranslationSettings>;

export const CreateTranslationSettings = Type.Object(
  { title: TranslationTitle, languages: Type.Optional(TranslationLanguages) },
  { additionalProperties: false },
);
/** PUT replaces: `languages` omitted keeps them. */
export const PutTranslationSettings = CreateTranslationSettings;

export const TranslationParams = Type.Object({ organizationId: Id, translationSettingsId: Id });
