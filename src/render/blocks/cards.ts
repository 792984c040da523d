import { el, text } from '../hast/el.js';
import { attr, type BlockRenderer } from './types.js';

const hostOf = (url: string) => {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
};

/** `{% embed url="..." %}` (a caption may follow, up to `{% endembed %}`): a link card; nothing is fetched. */
export const embed: BlockRenderer = ({ node, children }) => {
  const url = attr(node, 'url') ?? '';
  const caption = children();
  return [
    el('div', { className: ['gb-embed'] }, [
      el('a', { className: ['gb-card', 'gb-embed-card'], href: url, rel: ['noopener', 'noreferrer'] }, [
        el('span', { className: ['gb-card-title'] }, [text(hostOf(url))]),
        el('span', { className: ['gb-card-url'] }, [text(url)]),
      ]),
      ...(caption.length > 0 ? [el('div', { className: ['gb-caption'] }, caption)] : []),
    ]),
  ];
};

/** `{% content-ref url="page.md" %}`: a card to the page, with its title. */
export const contentRef: BlockRenderer = ({ node }) => [
  el(
    'a',
    {
      className: ['gb-card', 'gb-content-ref', ...(node.data?.broken ? ['gb-broken-link'] : [])],
      href: node.data?.href ?? attr(node, 'url') ?? '',
    },
    [el('span', { className: ['gb-card-title'] }, [text(node.data?.label ?? attr(node, 'url') ?? '')])],
  ),
];

/** `{% file src=".gitbook/assets/a.pdf" %}` (a caption may follow, up to `{% endfile %}`): a download card. */
export const file: BlockRenderer = ({ node, children }) => {
  const caption = children();
  return [
    el('div', { className: ['gb-file'] }, [
      el(
        'a',
        {
          className: ['gb-card', 'gb-file-card', ...(node.data?.broken ? ['gb-broken-link'] : [])],
          href: node.data?.href ?? attr(node, 'src') ?? '',
          download: '',
        },
        [el('span', { className: ['gb-card-title'] }, [text(node.data?.label ?? attr(node, 'src') ?? '')])],
      ),
      ...(caption.length > 0 ? [el('div', { className: ['gb-caption'] }, caption)] : []),
    ]),
  ];
};

/**
 * OpenAPI blocks filled from their spec (render's `expandOpenApi`): what they name. Otherwise
 * (a spec the site does not have, a `{% swagger %}` written by hand) a placeholder card.
 */
export const openapi: BlockRenderer = ({ node, children }) => {
  if (node.data?.openapi) return [el('div', { className: ['gb-openapi-block', `gb-${node.name}`] }, children())];
  const method = attr(node, 'method')?.toUpperCase();
  const path = attr(node, 'path');
  const spec = attr(node, 'spec') ?? attr(node, 'src') ?? '';
  const what = method && path ? `${method} ${path}` : node.name;
  return [
    el('div', { className: ['gb-card', 'gb-openapi'] }, [
      el('span', { className: ['gb-card-title'] }, [text(`OpenAPI: ${what}`)]),
      el('span', { className: ['gb-card-url'] }, [
        text(spec === '' ? 'the operation renders once the space has its OpenAPI spec' : `from ${spec}`),
      ]),
    ]),
  ];
};
