// The club's pages (static/club.html, built into club.js and club.css):
// one page that draws /club/..., picking what to show from
// location.pathname, each from its JSON twin under /club/api/ (linked as
// "JSON" for programs).  Links inside the club change the page without a
// reload (history.pushState); Back and Forward work; the focus goes to the
// new page's heading.

import './club.css';
import { h } from '../dom';
import type { Archive, Got, Ladder, Person } from './api';
import { getJson } from './api';
import { gamePage, gameApi, gameTitle } from './game';
import { gamesApi, gamesPage } from './games';
import { ladderApi, ladderPage, ladderTitle } from './ladder';
import { personApi, personPage, personTitle } from './person';
import { ratingsPage } from './ratings';
import { pageParam } from './util';
import { mountViewer } from './viewer';

type Nav = 'play' | 'ladder' | 'ratings' | 'archive' | 'viewer';

/** What a path shows: its JSON twin, its heading and its body. */
interface Route {
  page: string;
  nav: Nav | null;
  api?: string;
  title?: (d: never) => string;
  draw?: (d: never) => HTMLElement;
  /** A page drawn by its own code (the hand viewer). */
  mount?: (root: HTMLElement) => void;
  heading?: string;
}

const NAV: [Nav, string, string][] = [
  ['play', '/', 'Play'],
  ['ladder', '/club/ladder', 'Ladder'],
  ['ratings', '/club/ratings', 'Ratings'],
  ['archive', '/club/games', 'Archive'],
  ['viewer', '/club/viewer', 'Hand viewer'],
];

const navLinks = new Map<Nav, HTMLAnchorElement>();
const heading = h('h1', { id: 'club-title', tabindex: -1 }, 'The club');
const jsonLink = h('a', { id: 'club-json', class: 'json-link', href: '/club/api/ladder', title: 'This page\u2019s data as JSON, for programs' }, 'JSON');
const errorEl = h('p', { id: 'club-error', class: 'club-error', role: 'alert', hidden: true });
const body = h('div', { id: 'club-body', class: 'club-body' });
const main = h(
  'main',
  { id: 'club-main', class: 'club-main', tabindex: -1, 'data-page': 'ladder', 'data-state': 'loading' },
  h('div', { class: 'club-head' }, heading, jsonLink),
  errorEl,
  body,
);

function decode(s: string): string | null {
  try {
    return decodeURIComponent(s);
  } catch {
    return null;
  }
}

/** The page at this address. */
function routeOf(path: string, q: URLSearchParams): Route {
  const p = path.replace(/\/+$/, '');
  const go = (href: string): void => navigate(href);
  if (p === '/club' || p === '/club/ladder')
    return { page: 'ladder', nav: 'ladder', api: ladderApi(q), title: ladderTitle as (d: never) => string, draw: ((d: Ladder) => ladderPage(d, go)) as (d: never) => HTMLElement };
  let m = /^\/club\/(player|level)\/([^/]+)$/.exec(p);
  if (m) {
    const kind = m[1] as 'player' | 'level';
    const name = decode(m[2]);
    if (name !== null) {
      const self = (k: number): string => `/club/${kind}/${encodeURIComponent(name)}${k > 1 ? `?page=${k}` : ''}`;
      return {
        page: kind,
        nav: kind === 'level' ? 'ratings' : null,
        api: personApi(kind, name, pageParam(q)),
        title: personTitle as (d: never) => string,
        draw: ((d: Person) => personPage(d, self)) as (d: never) => HTMLElement,
      };
    }
  }
  m = /^\/club\/game\/([^/]+)$/.exec(p);
  if (m) return { page: 'game', nav: 'archive', api: gameApi(decode(m[1]) ?? m[1]), title: gameTitle as (d: never) => string, draw: gamePage as (d: never) => HTMLElement };
  if (p === '/club/games')
    return { page: 'games', nav: 'archive', api: gamesApi(q), title: () => 'The archive', draw: ((d: Archive) => gamesPage(d, q, go)) as (d: never) => HTMLElement };
  if (p === '/club/ratings') return { page: 'ratings', nav: 'ratings', api: '/club/api/ratings', title: () => 'Ratings', draw: ratingsPage as (d: never) => HTMLElement };
  if (p === '/club/viewer')
    return {
      page: 'viewer',
      nav: 'viewer',
      heading: 'The hand viewer',
      mount: mountViewer,
    };
  return { page: 'missing', nav: null, heading: 'No such page' };
}

let inflight: AbortController | null = null;

function setTitle(t: string): void {
  heading.textContent = t;
  document.title = `${t} \u00b7 barbu club`;
}

/** Draws the page at the current address. */
async function show(focus: boolean): Promise<void> {
  inflight?.abort();
  const ctl = new AbortController();
  inflight = ctl;
  const r = routeOf(location.pathname, new URLSearchParams(location.search));
  main.dataset.page = r.page;
  main.dataset.state = 'loading';
  for (const [k, a] of navLinks) {
    if (k === r.nav) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  errorEl.hidden = true;
  errorEl.textContent = '';
  jsonLink.hidden = !r.api;
  if (r.api) jsonLink.href = r.api;
  const done = (): void => {
    if (focus) heading.focus({ preventScroll: true });
  };
  if (!r.api) {
    setTitle(r.heading ?? 'The club');
    if (r.mount) r.mount(body);
    else {
      body.replaceChildren(h('p', null, 'There is no club page at this address. ', h('a', { href: '/club/ladder' }, 'The ladder'), ' lists the players and links to the rest.'));
    }
    main.dataset.state = r.mount ? 'shown' : 'error';
    done();
    return;
  }
  body.setAttribute('aria-busy', 'true');
  let got: Got<unknown>;
  try {
    got = await getJson<unknown>(r.api, ctl.signal);
  } catch {
    return; // another page was asked for meanwhile
  }
  if (inflight !== ctl) return;
  body.removeAttribute('aria-busy');
  if (!got.ok) {
    setTitle(got.status === 404 ? 'Not found' : 'The club');
    errorEl.textContent = got.error;
    errorEl.hidden = false;
    body.replaceChildren();
    main.dataset.state = 'error';
    done();
    return;
  }
  try {
    const d = got.data as never;
    setTitle((r.title as (d: never) => string)(d));
    body.replaceChildren((r.draw as (d: never) => HTMLElement)(d));
    main.dataset.state = 'shown';
  } catch (e) {
    console.error('club page', e);
    errorEl.textContent = 'This page could not be drawn from the server\u2019s answer. Its JSON link shows what came.';
    errorEl.hidden = false;
    main.dataset.state = 'error';
  }
  done();
}

function navigate(href: string): void {
  const u = new URL(href, location.href);
  if (u.pathname + u.search + u.hash !== location.pathname + location.search + location.hash) history.pushState(null, '', u.pathname + u.search + u.hash);
  window.scrollTo(0, 0);
  void show(true);
}

/** Whether a click on this link stays in the club's page. */
function ours(a: HTMLAnchorElement, e: MouseEvent): boolean {
  if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return false;
  if (a.hasAttribute('download') || (a.target && a.target !== '_self')) return false;
  const u = new URL(a.href, location.href);
  if (u.origin !== location.origin || !u.pathname.startsWith('/club') || u.pathname.startsWith('/club/api/')) return false;
  // A link to this very address with only another #: the browser's own.
  return !(u.pathname === location.pathname && u.search === location.search && u.hash !== '');
}

function start(): void {
  const root = document.getElementById('club');
  if (!root) return;
  const nav = h(
    'nav',
    { id: 'club-nav', class: 'club-nav', 'aria-label': 'The club' },
    h(
      'ul',
      null,
      NAV.map(([k, href, text]) => {
        const a = h('a', { href, 'data-nav': k }, text);
        navLinks.set(k, a);
        return h('li', null, a);
      }),
    ),
  );
  root.replaceChildren(
    h('a', { class: 'skip', href: '#club-main' }, 'Skip to the content'),
    h(
      'header',
      { class: 'site-header club-header' },
      h('p', { class: 'brand' }, h('span', { class: 'brand-mark', 'aria-hidden': 'true' }, '\u2660\u2665'), 'barbu club'),
      nav,
    ),
    main,
  );
  document.addEventListener('click', (e) => {
    const a = (e.target as Element | null)?.closest?.('a');
    if (!(a instanceof HTMLAnchorElement) || !ours(a, e)) return;
    e.preventDefault();
    navigate(a.href);
  });
  window.addEventListener('popstate', () => void show(true));
  void show(false);
}

start();
