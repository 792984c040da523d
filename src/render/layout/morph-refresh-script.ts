/**
 * The browser side of a page that updates itself, shared by the app's live pages and
 * `docsync preview`: `refresh()` fetches the page again and morphs it into the open one with
 * idiomorph (scroll position, focus and open tabs survive), one fetch at a time with at most one
 * more queued, then counts the update and dispatches `docsync:updated` (what the browser tests
 * wait on). `fetchPage` is a JavaScript expression giving a promise of the page's HTML, or null
 * to leave the page as it is.
 */
export function morphRefreshScript(fetchPage: string): string {
  return `var updating = false, again = false;
  function refresh() {
    if (updating) { again = true; return; }
    updating = true;
    ${fetchPage}.then(function (html) {
      if (html === null) return;
      var next = new DOMParser().parseFromString(html, 'text/html');
      Idiomorph.morph(document.body, next.body, { morphStyle: 'innerHTML' });
      document.title = next.title;
      window.docsyncUpdates = (window.docsyncUpdates || 0) + 1;
      document.dispatchEvent(new CustomEvent('docsync:updated'));
    }).catch(function () {}).then(function () { updating = false; if (again) { again = false; refresh(); } });
  }`;
}
