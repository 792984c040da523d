/**
 * A submitted JSON document (`{document: JSONDocument}`) as markdown, the form pages are stored
 * in. It covers the blocks the server itself renders (headings, paragraphs, lists, quotes, code,
 * dividers) with bold, italic, code and strikethrough marks and links (URLs, and references to
 * pages, anchors and files of the space); any other block keeps
 * its text as a paragraph, so no words are lost.
 */
type Json = Record<string, unknown>;

const asObject = (value: unknown): Json => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {});
const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

const MARKS: Record<string, string> = { bold: '**', italic: '_', strikethrough: '~~' };

function leafText(leaf: Json): string {
  const text = typeof leaf.text === 'string' ? leaf.text : '';
  const marks = asArray(leaf.marks).map((m) => String(asObject(m).type));
  if (text === '') return '';
  if (marks.includes('code')) return `\`${text.replace(/`/g, '\\`')}\``;
  let out = text.replace(/([\\*_~[\]`<])/g, '\\$1');
  for (const mark of marks) {
    const fence = MARKS[mark];
    if (fence) out = `${fence}${out}${fence}`;
  }
  return out;
}

const str = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

/**
 * A link's ContentRef as a URL the batch resolves (api-gaps 3.3): page and file references of
 * this space become `/pages/<id>[#anchor]` and `/files/<id>`, an anchor of the page itself
 * `#anchor`. A reference into another space, or of another kind, is not a link here.
 */
function refUrl(ref: Json): string | undefined {
  if (str(ref.space) !== undefined) return undefined;
  const hash = (anchor: string) => `#${encodeURIComponent(anchor)}`;
  switch (ref.kind) {
    case 'url':
      return typeof ref.url === 'string' ? ref.url : undefined;
    case 'page':
      return str(ref.page) === undefined ? undefined : `/pages/${encodeURIComponent(str(ref.page)!)}`;
    case 'file':
      return str(ref.file) === undefined ? undefined : `/files/${encodeURIComponent(str(ref.file)!)}`;
    case 'anchor': {
      const anchor = str(ref.anchor);
      if (anchor === undefined) return undefined;
      return str(ref.page) === undefined ? hash(anchor) : `/pages/${encodeURIComponent(str(ref.page)!)}${hash(anchor)}`;
    }
    default:
      return undefined;
  }
}

function inline(node: Json): string {
  if (node.object === 'text')
    return asArray(node.leaves)
      .map((l) => leafText(asObject(l)))
      .join('');
  const children = asArray(node.nodes)
    .map((n) => inline(asObject(n)))
    .join('');
  if (node.object === 'inline' && node.type === 'link') {
    const url = refUrl(asObject(asObject(node.data).ref));
    return url === undefined ? children : `[${children}](${url.replace(/[\s()<>]/g, encodeURIComponent)})`;
  }
  return children;
}

/** The plain text of any node: what an unknown block keeps. */
function text(node: Json): string {
  if (node.object === 'text')
    return asArray(node.leaves)
      .map((l) => String(asObject(l).text ?? ''))
      .join('');
  return asArray(node.nodes)
    .map((n) => text(asObject(n)))
    .join(node.object === 'block' ? '\n' : '');
}

const prefixLines = (body: string, first: string, rest: string) =>
  body
    .split('\n')
    .map((line, i) => (i === 0 ? first + line : line === '' ? '' : rest + line))
    .join('\n');

function block(node: Json): string {
  const type = String(node.type ?? '');
  const nodes = asArray(node.nodes).map(asObject);
  const heading = /^heading-([1-6])$/.exec(type);
  if (heading) return `${'#'.repeat(Number(heading[1]))} ${nodes.map(inline).join('')}`;
  switch (type) {
    case 'paragraph':
      return nodes.map(inline).join('');
    case 'divider':
      return '---';
    case 'code': {
      const syntax = asObject(node.data).syntax;
      return `\`\`\`${typeof syntax === 'string' ? syntax : ''}\n${nodes.map(text).join('\n')}\n\`\`\``;
    }
    case 'blockquote':
      return blocks(nodes)
        .split('\n')
        .map((line) => `> ${line}`.trimEnd())
        .join('\n');
    case 'list-unordered':
    case 'list-ordered':
    case 'list-tasks':
      return nodes
        .map((item, i) => {
          const checked = asObject(item.data).checked === true ? 'x' : ' ';
          const bullet = type === 'list-ordered' ? `${i + 1}. ` : type === 'list-tasks' ? `- [${checked}] ` : '- ';
          return prefixLines(blocks(asArray(item.nodes).map(asObject)), bullet, ' '.repeat(type === 'list-tasks' ? 2 : bullet.length));
        })
        .join('\n');
    default:
      return text(node).replace(/([\\*_~[\]`<#])/g, '\\$1');
  }
}

function blocks(nodes: Json[]): string {
  return nodes
    .map(block)
    .filter((b) => b !== '')
    .join('\n\n');
}

export function jsonDocumentToMarkdown(document: unknown): string {
  const body = blocks(asArray(asObject(document).nodes).map(asObject));
  return body === '' ? '' : `${body}\n`;
}
