/*
 * Tempora race-day service worker (issue 15: the passings desk keeps working without a network).
 * Registered only by the race-day pages. Network first for the app shell (navigations and
 * /assets/*), caching what it fetched; the cache answers only when the network fails. Every
 * script and style of the build (`/raceday-precache.json`) is cached at install and after online
 * navigations, so a lazy chunk first needed offline is there. API calls
 * are never intercepted, but for those the app and the event frame start with (below); other
 * origins neither.
 * Entries made offline live in IndexedDB and are sent by the page when the network returns.
 */
const CACHE = 'tempora-raceday-v4';
/** The build's list of every script and style the app can load (apps/web/build/raceday-precache.ts). */
const PRECACHE = '/raceday-precache.json';

/**
 * Caches every file of the build's list not cached yet (issue 26: a lazy chunk first asked for
 * offline — the update banner's, 3 s after a load — took the desk down). Run at install and
 * after every online navigation, so a new build's files are fetched once, while online.
 */
let precached = null;
function precache() {
  return fetch(PRECACHE, { cache: 'no-store' })
    .then((response) => (response.ok ? response.json() : null))
    .then((list) => {
      if (!list || !Array.isArray(list.files) || list.version === precached) return;
      return caches.open(CACHE).then((cache) =>
        Promise.all(
          list.files.map((file) =>
            cache.match(file).then((hit) => hit || cache.add(file).catch(() => undefined)),
          ),
        ).then(() => {
          precached = list.version;
        }),
      );
    })
    .catch(() => undefined);
}

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(['/', '/raceday.webmanifest']))
      .catch(() => undefined)
      .then(() => precache())
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) =>
        Promise.all(
          keys.filter((k) => k.startsWith('tempora-raceday-') && k !== CACHE).map((k) => caches.delete(k)),
        ),
      )
      .then(() => self.clients.claim()),
  );
});

/** The user (`sub`) a bearer token names, read from its payload (not verified: a cache key only). */
function subOf(request) {
  const header = request.headers.get('authorization') || '';
  const payload = header.startsWith('Bearer ') ? header.slice(7).split('.')[1] : null;
  if (!payload) return null;
  try {
    return JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))).sub || null;
  } catch {
    return null;
  }
}

/**
 * What the app needs to start signed in: its configuration and the user's profile and
 * permissions. Network first; offline, the last answer — for the same user only (keyed by the
 * token's subject), so a device never shows one user's session to another.
 */
const STARTUP = ['/api/env-config', '/api/user/get', '/api/permission/get'];
/** The console's event frame, which the race-day pages sit in. */
const EVENT_FRAME = /^\/api\/console\/events\/[^/]+$/;

function startup(event, url) {
  const sub = url.pathname === '/api/env-config' ? '-' : subOf(event.request);
  if (!sub) return;
  const key = `${url.pathname}?cached-for=${encodeURIComponent(sub)}`;
  event.respondWith(
    fetch(event.request)
      .then((response) => {
        if (response.ok) {
          const copy = response.clone();
          caches.open(CACHE).then((cache) => cache.put(key, copy));
        }
        return response;
      })
      .catch(() => caches.match(key).then((hit) => hit || Response.error())),
  );
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (STARTUP.includes(url.pathname) || EVENT_FRAME.test(url.pathname)) return startup(event, url);
  if (url.pathname.startsWith('/api/') || url.pathname.startsWith('/app/')) return;
  const shell =
    request.mode === 'navigate' ||
    url.pathname.startsWith('/assets/') ||
    url.pathname === '/boot.js' ||
    url.pathname === '/raceday.webmanifest';
  if (!shell) return;
  event.respondWith(
    fetch(request)
      .then((response) => {
        if (response.ok) {
          const copy = response.clone();
          caches.open(CACHE).then((cache) => cache.put(request.mode === 'navigate' ? '/' : request, copy));
          // Online: make sure every chunk the app may ask for later is cached too.
          if (request.mode === 'navigate') event.waitUntil(precache());
        }
        return response;
      })
      .catch(() =>
        caches.match(request.mode === 'navigate' ? '/' : request).then((hit) => hit || Response.error()),
      ),
  );
});
