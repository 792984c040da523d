import type { ChangeRequestRow } from '../store/change-requests.js';

/**
 * The revision of main the change request last took in: where it started, or the main head
 * it was last updated from. Merge and update both use it as the three-way base.
 */
export function changeRequestBase(row: ChangeRequestRow): string {
  return row.revision_merged_ancestor ?? row.revision_initial;
}
