import { type GitObject, gitObject } from './object-format.js';

export interface Signature {
  name: string;
  email: string;
  /** Seconds since the epoch. */
  timestamp: number;
}

/** What isomorphic-git's writeCommit does to a message: no carriage returns, no leading newlines, exactly one trailing newline. */
const normalizeMessage = (message: string) => `${message.replace(/\r/g, '').replace(/^\n+/, '').replace(/\n+$/, '')}\n`;

/**
 * A commit object, byte for byte the one isomorphic-git's writeCommit writes for the same fields
 * with `timezoneOffset: 0` (so the oid does not depend on which of the two wrote it). Pure.
 */
export function commitObject(commit: {
  tree: string;
  parents: readonly string[];
  author: Signature;
  committer: Signature;
  message: string;
}): GitObject {
  const person = (who: Signature) => `${who.name} <${who.email}> ${who.timestamp} +0000`;
  const text = [
    `tree ${commit.tree}`,
    ...commit.parents.map((parent) => `parent ${parent}`),
    `author ${person(commit.author)}`,
    `committer ${person(commit.committer)}`,
    '',
    normalizeMessage(commit.message),
  ].join('\n');
  return gitObject('commit', Buffer.from(text, 'utf8'));
}
