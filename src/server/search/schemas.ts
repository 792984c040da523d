import { Type, type Static } from '@sinclair/typebox';
import { Id, ListQuery } from '../../model/index.js';

/** Route-only schemas of the search endpoints, shaped as the published spec's search results. */
export const MAX_QUERY_LENGTH = 512;

export const SearchQueryString = Type.Object(
  {
    query: Type.String({ minLength: 1, maxLength: MAX_QUERY_LENGTH }),
    ...ListQuery.properties,
  },
  { additionalProperties: false },
);

const AppUrls = Type.Object({ app: Type.String() });

export const SearchSectionResult = Type.Object({
  id: Type.String(),
  title: Type.String(),
  path: Type.String(),
  score: Type.Number(),
  body: Type.String(),
  urls: AppUrls,
});
export type SearchSectionResult = Static<typeof SearchSectionResult>;

export const SearchPageResult = Type.Object({
  id: Id,
  title: Type.String(),
  description: Type.String(),
  path: Type.String(),
  score: Type.Number(),
  rank: Type.Integer(),
  ancestors: Type.Array(Type.Object({ title: Type.String() })),
  sections: Type.Array(SearchSectionResult),
  urls: AppUrls,
});
export type SearchPageResult = Static<typeof SearchPageResult>;

export const SearchSpaceResult = Type.Object({
  type: Type.Literal('space'),
  id: Id,
  title: Type.String(),
  score: Type.Number(),
  pages: Type.Array(SearchPageResult),
});
export type SearchSpaceResult = Static<typeof SearchSpaceResult>;
