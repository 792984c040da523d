/** One path segment, escaped: ids are URL-safe, but a change request may be named by a number or a caller's typo. */
export const seg = (value: string | number) => encodeURIComponent(String(value));

/**
 * Where content is read from: a space's live content, a change request's head, or one revision.
 * `changeRequest` takes an id or a number.
 */
export type ContentScope =
  | { space: string; changeRequest?: undefined; revision?: undefined }
  | { space: string; changeRequest: string | number; revision?: undefined }
  | { space: string; revision: string; changeRequest?: undefined };

/** `/v1/spaces/{id}/content`, `.../change-requests/{id}/content` or `.../revisions/{id}`. */
export function scopePath(scope: ContentScope): string {
  const space = `/v1/spaces/${seg(scope.space)}`;
  if (scope.revision !== undefined) return `${space}/revisions/${seg(scope.revision)}`;
  if (scope.changeRequest !== undefined) return `${space}/change-requests/${seg(scope.changeRequest)}/content`;
  return `${space}/content`;
}
