import { slugify } from '../../content/index.js';

/** `cr/<number>-<subject slug>`: the local branch of a change request. */
export function changeRequestBranch(number: number, subject: string): string {
  const slug =
    subject.trim() === ''
      ? 'untitled'
      : slugify(subject)
          .replace(/[^a-z0-9-]+/g, '-')
          .replace(/-+/g, '-')
          .replace(/^-|-$/g, '')
          .slice(0, 40);
  return `cr/${number}-${slug || 'untitled'}`;
}

/** A ref outside `refs/heads`, so `git branch` lists only the user's branches. */
export const remoteRef = (name: string) => `refs/docsync/${name}`;
