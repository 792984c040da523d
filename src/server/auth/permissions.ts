import {
  roleAtLeast,
  type Role,
  type CollectionPermissions,
  type CommentPermissions,
  type OrganizationPermissions,
  type SpacePermissions,
  type SitePermissions,
} from '../../model/index.js';

/** The `permissions` objects, computed from the caller's role (docs/api.md, "Roles"). */
export function spacePermissions(role: Role | null): SpacePermissions {
  return {
    view: roleAtLeast(role, 'read'),
    access: roleAtLeast(role, 'read'),
    admin: roleAtLeast(role, 'admin'),
    viewInviteLinks: roleAtLeast(role, 'admin'),
    edit: roleAtLeast(role, 'edit'),
    triggerGitSync: roleAtLeast(role, 'edit'),
    comment: roleAtLeast(role, 'comment'),
    merge: roleAtLeast(role, 'review'),
    review: roleAtLeast(role, 'review'),
    installIntegration: roleAtLeast(role, 'admin'),
  };
}

export function collectionPermissions(role: Role | null): CollectionPermissions {
  return {
    view: roleAtLeast(role, 'read'),
    admin: roleAtLeast(role, 'admin'),
    viewInviteLinks: roleAtLeast(role, 'admin'),
    create: roleAtLeast(role, 'create'),
  };
}

/** `member` is true for any member, guests included; `role` is null for a guest. */
export function organizationPermissions(member: boolean, role: Role | null): OrganizationPermissions {
  return {
    // A guest lists the organization (its shared content is there) but may not read it
    // (`GET /orgs/{id}` is 403): the flags say what the organization's own routes answer.
    view: member && roleAtLeast(role, 'read'),
    access: member && roleAtLeast(role, 'read'),
    admin: roleAtLeast(role, 'admin'),
    ownTeam: roleAtLeast(role, 'admin'),
    createContent: roleAtLeast(role, 'create'),
    createOpenAPISpec: roleAtLeast(role, 'create'),
    ingestConversations: roleAtLeast(role, 'admin'),
    viewBilling: roleAtLeast(role, 'admin'),
    listMembers: roleAtLeast(role, 'read'),
    listTeams: roleAtLeast(role, 'read'),
    listIntegrations: roleAtLeast(role, 'read'),
    listInstallations: roleAtLeast(role, 'admin'),
    installIntegration: roleAtLeast(role, 'admin'),
  };
}

/** A site's `permissions`: from the caller's organization role (sites have no roles of their own yet). */
export function sitePermissions(role: Role | null): SitePermissions {
  return {
    view: roleAtLeast(role, 'read'),
    access: roleAtLeast(role, 'read'),
    edit: roleAtLeast(role, 'edit'),
    create: roleAtLeast(role, 'create'),
    admin: roleAtLeast(role, 'admin'),
    installIntegration: roleAtLeast(role, 'admin'),
    viewAdaptiveSchema: roleAtLeast(role, 'read'),
    editAdaptiveSchema: roleAtLeast(role, 'admin'),
  };
}

/**
 * A comment's or reply's `permissions` for the caller: anyone who sees the space views it;
 * `comment` and above reply (and react, resolve, reopen); its author edits and deletes it while
 * they may still comment; an admin deletes any.
 */
export function commentPermissions(role: Role | null, isAuthor: boolean): CommentPermissions {
  const canComment = roleAtLeast(role, 'comment');
  return {
    view: roleAtLeast(role, 'read'),
    edit: isAuthor && canComment,
    reply: canComment,
    delete: (isAuthor && canComment) || roleAtLeast(role, 'admin'),
  };
}
