import { describe, expect, it } from 'vitest';
import { frontMatterMeta } from '../../src/content/changes/front-matter-meta.js';

describe('front matter layout', () => {
  it('reads every layout option GitBook writes, anchors included', () => {
    const layout = { width: 'wide', title: { visible: false }, anchors: { visible: false }, actions: { visible: true } };
    expect(frontMatterMeta({ layout })).toEqual({
      meta: { layout: { width: 'wide', title: false, anchors: false, actions: true } },
      rest: {},
    });
  });

  it('still refuses an option it does not know, naming it', () => {
    expect(frontMatterMeta({ layout: { sidebar: { visible: false } } })).toBe('front matter `layout` has an unknown field `sidebar`');
  });
});
