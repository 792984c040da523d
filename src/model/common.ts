import { Type, type TSchema } from '@sinclair/typebox';

export const Timestamp = Type.String({ format: 'date-time' });
export const Uri = Type.String({ format: 'uri' });

/**
 * An emoji as GitBook stores it: the character itself or its code points in hex
 * (`1f389`, `1f468-200d-1f4bb`). The empty string means "no emoji".
 */
export const EMOJI_PATTERN =
  '^(|[0-9a-fA-F]{4,6}(-[0-9a-fA-F]{4,6})*|(\\p{Extended_Pictographic}|\\p{Emoji_Component}|\\u200d|\\ufe0f|\\u20e3)+)$';
export const Emoji = Type.String({ maxLength: 50, format: 'emoji' });

/** Identifiers in paths, as the published spec constrains them. */
export const ID_PATTERN = '^[a-zA-Z0-9_-]+$';
export const Id = Type.String({ minLength: 1, maxLength: 64, pattern: ID_PATTERN });

export const DEFAULT_LIST_LIMIT = 100;
export const MAX_LIST_LIMIT = 1000;

export const ListQuery = Type.Object(
  {
    page: Type.Optional(Type.String({ minLength: 1, maxLength: 512 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_LIST_LIMIT })),
  },
  { additionalProperties: false },
);

/** The envelope of every list response: `items`, `count` (items in this response), `next.page`. */
export function ListOf<T extends TSchema>(item: T) {
  return Type.Object({
    items: Type.Array(item),
    count: Type.Number(),
    next: Type.Optional(Type.Object({ page: Type.String() })),
  });
}

export const ErrorBody = Type.Object({
  error: Type.Object({ code: Type.Integer(), message: Type.String() }),
});
