/**
 * One GitBook template tag, `{% name key="value" flag %}`, as Git Sync writes them: a block opens
 * with `{% hint style="info" %}` and closes with `{% endhint %}`; `{% include "path" %}` and
 * `{% if expression %}` take their argument as written.
 */
export interface Tag {
  /** `hint`, `tab`, ...; for a closing tag, the name it closes (`hint` for `endhint`). */
  name: string;
  closing: boolean;
  /** `key="value"` pairs; a bare word is `true`. Later keys win. */
  attrs: Record<string, string | true>;
  /** Everything after the name, trimmed: the path of an include, the condition of an if. */
  args: string;
}

const TAG = /^\{%-?\s*(@[\w-]+\/[\w-]+|[A-Za-z][\w-]*)([\s\S]*?)-?%\}$/;
const ATTR = /([A-Za-z_][\w-]*)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"']+)))?/g;

/** Tags that end blocks of theirs are spelled `end` + the block's name. */
const isClosing = (name: string) => name.startsWith('end') && name.length > 3;

/** Reads a tag written alone (`{% ... %}`, surrounding blanks allowed); undefined when it is not one. */
export function parseTag(text: string): Tag | undefined {
  const match = TAG.exec(text.trim());
  if (!match) return undefined;
  const word = match[1]!.toLowerCase();
  const args = match[2]!.trim();
  if (args.includes('%}') || args.includes('{%')) return undefined;
  const closing = isClosing(word);
  const attrs: Record<string, string | true> = {};
  for (const attr of args.matchAll(ATTR)) {
    if (attr.index > 0 && !/\s/.test(args[attr.index - 1]!)) continue;
    attrs[attr[1]!] = attr[2] ?? attr[3] ?? attr[4] ?? true;
  }
  return { name: closing ? word.slice(3) : word, closing, attrs, args };
}

/** The path a `{% include "path" %}` names (quotes optional). */
export function includeTarget(tag: Tag): string {
  return tag.args.replace(/^(["'])(.*)\1$/, '$2');
}
