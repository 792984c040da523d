import { morphRefreshScript } from '../render/index.js';

/**
 * The preview's script in the browser: live updates over server-sent events (the changed page
 * fetched again and morphed into the open one with idiomorph, so scroll position, focus and
 * open tabs' state survive), and the search box.
 */
export const PREVIEW_CLIENT = `(function () {
  ${morphRefreshScript("fetch(location.pathname, { headers: { 'x-docsync-preview': 'morph' } }).then(function (r) { return r.text(); })")}
  var events = new EventSource('/_docsync/events');
  events.addEventListener('change', function (event) {
    var data = JSON.parse(event.data);
    if (data.all || data.urls.indexOf(decodeURI(location.pathname)) >= 0 || data.urls.indexOf(location.pathname) >= 0) refresh();
  });
  events.addEventListener('open', function () { document.documentElement.setAttribute('data-docsync-live', 'true'); });
  var timer;
  document.addEventListener('input', function (event) {
    if (event.target.id !== 'ds-search-input') return;
    clearTimeout(timer);
    var query = event.target.value;
    timer = setTimeout(function () {
      fetch('/_docsync/search?q=' + encodeURIComponent(query)).then(function (r) { return r.json(); }).then(function (hits) {
        var list = document.getElementById('ds-search-results');
        list.replaceChildren.apply(list, hits.map(function (hit) {
          var li = document.createElement('li'), a = document.createElement('a'), small = document.createElement('small');
          a.href = hit.url; a.textContent = hit.title; small.textContent = hit.excerpt;
          a.appendChild(small); li.appendChild(a); return li;
        }));
      });
    }, 80);
  });
})();`;
