/**
 * Makes the race-day desk installable and usable offline: a web app manifest and a service worker
 * (`/raceday-sw.js`), both added only when a race-day page opens, so spectators' pages never get
 * them. The worker is network-first and never touches `/api`: online, the site behaves exactly as
 * without it; offline, the app shell and its chunks come from the cache.
 */
export function installOfflineShell() {
  if (!document.querySelector('link[rel="manifest"]')) {
    const link = document.createElement('link');
    link.rel = 'manifest';
    link.href = '/raceday.webmanifest';
    document.head.appendChild(link);
  }
  if ('serviceWorker' in navigator && window.isSecureContext) {
    navigator.serviceWorker.register('/raceday-sw.js').catch(() => undefined);
  }
}
