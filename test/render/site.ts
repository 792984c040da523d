import type { RenderSite, SitePage } from '../../src/render/index.js';

/** A small site: README, a guides section with a child, a hidden page, a link page, a group. */
export function testSite(extra: Partial<RenderSite> = {}): RenderSite {
  const doc = (id: string, title: string, path: string, url: string, pages: SitePage[] = [], more: Partial<SitePage> = {}): SitePage => ({
    id,
    kind: 'document',
    title,
    path,
    url,
    pages,
    ...more,
  });
  return {
    title: 'Test site',
    pages: [
      doc('home', 'Home', 'README.md', '/'),
      doc('guides', 'Guides', 'guides/README.md', '/guides', [doc('install', 'Install', 'guides/install.md', '/guides/install')]),
      doc('secret', 'Secret', 'secret.md', '/secret', [], { hidden: true }),
      { id: 'gh', kind: 'link', title: 'GitHub', url: 'https://github.com', pages: [] },
      { id: 'ref', kind: 'group', title: 'Reference', url: '', pages: [doc('api', 'API', 'reference/api.md', '/reference/api')] },
    ],
    variables: { product: 'Docsync' },
    includes: new Map([['.gitbook/includes/note.md', 'Shared {{ space.vars.product }} [install](../../guides/install.md)']]),
    assets: new Set(['.gitbook/assets/logo.png', '.gitbook/assets/a b.pdf']),
    ...extra,
  };
}

export const pageOf = (site: RenderSite, path: string): SitePage => {
  const find = (pages: readonly SitePage[]): SitePage | undefined =>
    pages.map((p) => (p.path === path ? p : find(p.pages))).find((p) => p !== undefined);
  return find(site.pages)!;
};
