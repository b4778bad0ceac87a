/*
 * Alerts for followers (issue 40): the service worker that shows a web push message (its payload
 * is the server's `AlertPush`: title, body, the runner's live card and the one-click unsubscribe).
 * Clicking the message opens the card; its "unsubscribe" action opens the unsubscribe page.
 */
self.addEventListener('push', (event) => {
  let alert = { title: 'Tempora', body: '', url: '/', unsubscribeUrl: '/' };
  try {
    alert = { ...alert, ...event.data.json() };
  } catch {
    // A message without a JSON payload: shown with the defaults.
  }
  event.waitUntil(
    self.registration.showNotification(alert.title, {
      body: alert.body,
      tag: `${alert.url}|${alert.pointKey ?? ''}`,
      data: { url: alert.url, unsubscribeUrl: alert.unsubscribeUrl },
      actions: [{ action: 'unsubscribe', title: alert.unsubscribeLabel ?? 'Unsubscribe' }],
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const data = event.notification.data ?? {};
  const url = event.action === 'unsubscribe' ? data.unsubscribeUrl : data.url;
  if (url) event.waitUntil(self.clients.openWindow(url));
});
