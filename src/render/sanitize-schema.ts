import { defaultSchema } from 'rehype-sanitize';
import type { Options } from 'rehype-sanitize';

/** Classes a page may carry: the renderer's own `gb-*`, code languages, math (before KaTeX). */
const CLASS = [
  'className',
  /^gb-[a-z0-9-]+$/,
  /^language-[\w+#.-]+$/,
  'math-inline',
  'math-display',
  'contains-task-list',
  'task-list-item',
  'footnotes',
  'sr-only',
  'data-footnote-backref',
] as const;

/**
 * GitHub's schema (no script, style, iframe, form, event handler or `javascript:` URL), plus
 * what GitBook's blocks need: figures, marks, details, the tab buttons and their ARIA state,
 * the classes above. Ids are kept as written (headings carry GitBook's anchors); only `name`
 * is prefixed against clobbering.
 */
type Attributes = NonNullable<Options['attributes']>;
const isClassName = (definition: Attributes[string][number]) =>
  definition === 'className' || (Array.isArray(definition) && definition[0] === 'className');

/** GitHub's per-element attributes with their own class lists dropped: `*` allows CLASS everywhere. */
const attributes: Attributes = Object.fromEntries(
  Object.entries(defaultSchema.attributes ?? {}).map(([tag, list]) => [tag, list.filter((d) => !isClassName(d))]),
);

export const SANITIZE_SCHEMA: Options = {
  ...defaultSchema,
  clobber: ['name'],
  tagNames: [...(defaultSchema.tagNames ?? []), 'figure', 'figcaption', 'mark', 'button'],
  attributes: {
    ...attributes,
    '*': [...(attributes['*'] ?? []), [...CLASS], 'role', 'ariaHidden', 'ariaLabel', 'hidden', 'dataTab'],
    a: [...(attributes.a ?? []), 'download', ['rel', 'noopener', 'noreferrer']],
    button: [['type', 'button'], 'ariaSelected'],
    img: [...(attributes.img ?? []), 'loading'],
  },
  protocols: { ...defaultSchema.protocols, href: [...(defaultSchema.protocols?.href ?? []), 'tel'] },
};
