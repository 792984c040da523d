import { STYLES, escapeHtml } from '../../render/index.js';
import { APP_STYLES } from './styles.js';
import type { WebSession } from './session.js';

export const esc = escapeHtml;

/** A value of trusted markup: built by this folder, every outside string escaped. */
export interface AppChrome {
  session: WebSession | undefined;
  /** Links shown after the home link, as [label, href]. */
  trail?: readonly (readonly [string, string])[];
  /** Where the app bar's search form goes (a space's search). */
  searchAction?: string;
  query?: string;
}

/** The app bar: home, the trail, a space's search, the signed-in user and the sign-out form. */
export function appBar(chrome: AppChrome): string {
  const trail = (chrome.trail ?? []).map(([label, href]) => ` › <a href="${esc(href)}">${esc(label)}</a>`).join('');
  const search = chrome.searchAction
    ? `<form role="search" method="get" action="${esc(chrome.searchAction)}"><input type="search" name="q" placeholder="Search this space" aria-label="Search this space" value="${esc(chrome.query ?? '')}"></form>`
    : '';
  const user = chrome.session
    ? `<span class="app-user">${esc(chrome.session.user.display_name)}</span><form method="post" action="/app/sign-out"><input type="hidden" name="csrf" value="${esc(chrome.session.session.csrf)}"><button type="submit">Sign out</button></form>`
    : '<a class="app-user" href="/app/sign-in">Sign in</a>';
  return `<style>${APP_STYLES}</style><nav class="app-bar" aria-label="App"><a href="/app"><strong>docsync</strong></a>${trail}${search}${user}</nav>`;
}

/** A whole app page (lists, a change request, forms) around `body`. */
export function appPage(title: string, body: string, chrome: AppChrome): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(title)} | docsync</title><meta name="referrer" content="same-origin"><style>${STYLES}</style></head><body>${appBar(chrome)}
<main class="app-main" id="app-main">${body}</main></body></html>
`;
}

/** The page of an error: the status and what was wrong, and a way home. */
export function errorPage(status: number, message: string, chrome: AppChrome): string {
  const title = status === 404 ? 'Not found' : status === 403 ? 'Not allowed' : status >= 500 ? 'Server error' : 'Cannot do that';
  return appPage(
    title,
    `<div class="app-error"><h1>${esc(title)}</h1><p>${esc(message)}</p><p><a href="/app">Your spaces</a></p></div>`,
    chrome,
  );
}
