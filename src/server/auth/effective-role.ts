import { ROLES, isRole, type Role } from '../../model/index.js';

/** Everything that decides a caller's role on one space or collection. */
export interface RoleFacts {
  /** The caller's membership of the content's organization: undefined for a non-member or a
   * disabled member; `role` null for a guest. */
  member: { role: Role | null } | undefined;
  /** Stored default levels along the content's inheritance chain (`inheritanceChain`), nearest
   * first: `inherit`, a role, or `none`. */
  levels: readonly string[];
  /** Roles given on the nodes of the inheritance chain to the caller or to a team the caller is
   * in (the permission operations of spaces and collections). */
  grants: readonly Role[];
}

/**
 * The one rule deciding who may do what on content (docs/api.md, "Effective role on content").
 * The effective role is the highest of:
 * - the organization role (none for guests),
 * - the content's `defaultLevel`, or the nearest parent collection's when it is `inherit`
 *   (members only: guests get nothing by default; `none` gives nothing),
 * - every role given to the caller or the caller's teams on the content or on a collection it
 *   inherits from.
 * Non-members and disabled members get no role whatever the grants say.
 */
export function effectiveRole(facts: RoleFacts): Role | null {
  const { member } = facts;
  if (!member) return null;
  const roles: Role[] = [...facts.grants];
  if (member.role !== null) {
    roles.push(member.role);
    const level = facts.levels.find((l) => l !== 'inherit');
    if (level !== undefined && isRole(level)) roles.push(level);
  }
  return highestRole(roles);
}

/** The highest of `roles`; null for none. */
export function highestRole(roles: Iterable<Role>): Role | null {
  let best: Role | null = null;
  for (const role of roles) {
    if (best === null || ROLES.indexOf(role) < ROLES.indexOf(best)) best = role;
  }
  return best;
}

/** A space or collection as far as inheritance goes. */
export interface ChainNode {
  id: string;
  parent_id: string | null;
  default_level: string;
}

/**
 * The nodes a content takes its access from: itself, then its parent collections for as long as
 * each node says `inherit`. The first node with its own level (a role or none) ends the chain, so
 * its level and the roles given on it and below are all that count; a collection's roles do not
 * reach into a space that set its own level. A missing parent or a cycle ends it too.
 */
export async function inheritanceChain<N extends ChainNode>(
  node: N,
  parentOf: (id: string) => N | undefined | Promise<N | undefined>,
): Promise<N[]> {
  const chain: N[] = [];
  const seen = new Set<string>();
  let current: N | undefined = node;
  while (current && !seen.has(current.id)) {
    seen.add(current.id);
    chain.push(current);
    if (current.default_level !== 'inherit' || current.parent_id === null) break;
    current = await parentOf(current.parent_id);
  }
  return chain;
}
