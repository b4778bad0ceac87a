/*
 * Tempora race-day service worker (issue 15: the passings desk keeps working without a network).
 * Registered only by the race-day pages. Network first for the app shell (navigations and
 * /assets/*), caching what it fetched; the cache answers only when the network fails. API calls
 * (/api/*) and other origins are never intercepted: entries made offline live in IndexedDB and
 * are sent by the page when the network returns.
 */
const CACHE = 'tempora-raceday-v1';

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(['/', '/raceday.webmanifest']))
      .catch(() => undefined)
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

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (
    url.origin !== self.location.origin ||
    url.pathname.startsWith('/api/') ||
    url.pathname.startsWith('/app/')
  )
    return;
  const shell =
    request.mode === 'navigate' ||
    url.pathname.startsWith('/assets/') ||
    url.pathname === '/raceday.webmanifest';
  if (!shell) return;
  event.respondWith(
    fetch(request)
      .then((response) => {
        if (response.ok) {
          const copy = response.clone();
          caches.open(CACHE).then((cache) => cache.put(request.mode === 'navigate' ? '/' : request, copy));
        }
        return response;
      })
      .catch(() =>
        caches.match(request.mode === 'navigate' ? '/' : request).then((hit) => hit || Response.error()),
      ),
  );
});
