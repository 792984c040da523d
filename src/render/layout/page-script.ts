/**
 * The page's own script: tabs switch on click (the one behaviour GitBook's blocks need), the menu opens on a phone. Plain
 * DOM, delegated from the document so it keeps working when the page is morphed in place.
 */
export const PAGE_SCRIPT = `document.addEventListener('click', function (event) {
  if (event.target.closest && event.target.closest('.ds-menu')) { document.body.classList.toggle('ds-menu-open'); return; }
  var button = event.target.closest && event.target.closest('.gb-tab-button');
  if (!button) return;
  var tabs = button.closest('.gb-tabs');
  var index = button.getAttribute('data-tab');
  tabs.querySelectorAll(':scope > .gb-tab-list > .gb-tab-button').forEach(function (b) { b.setAttribute('aria-selected', String(b === button)); });
  tabs.querySelectorAll(':scope > .gb-tab-panel').forEach(function (p) { p.hidden = p.getAttribute('data-tab') !== index; });
});`;
