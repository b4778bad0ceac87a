import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AlertSubscribe, AlertSubscribed } from '@tempora/contracts';
import { apiGet, apiRequest } from '../../../lib/api-client.ts';

/** The service worker that shows the alerts (apps/web/public/alerts-sw.js). */
export const ALERTS_WORKER = '/alerts-sw.js';

/** `applicationServerKey` wants the VAPID key's bytes (base64url in the API). */
function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const raw = atob(base64url.replace(/-/g, '+').replace(/_/g, '/'));
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

/** Whether this browser can receive web push messages (a secure page with a push manager). */
export function pushSupported(): boolean {
  return (
    window.isSecureContext &&
    'serviceWorker' in navigator &&
    'PushManager' in window &&
    'Notification' in window
  );
}

/**
 * This device's push subscription: the permission asked, the service worker registered, the
 * browser's push service asked for a subscription with the server's VAPID key.
 */
export async function pushSubscription(): Promise<PushSubscriptionJSON> {
  if ((await Notification.requestPermission()) !== 'granted') throw new Error('PUSH_DENIED');
  const registration = await navigator.serviceWorker.register(ALERTS_WORKER);
  await navigator.serviceWorker.ready;
  const { publicKey } = await apiGet<{ publicKey: string }>('apiUrlBase', 'alerts/vapid', {
    anonymous: true,
  });
  const subscription = await registration.pushManager.subscribe({
    userVisibleOnly: true,
    applicationServerKey: keyBytes(publicKey),
  });
  return subscription.toJSON();
}

/** Asks for alerts about a runner (push or e-mail). */
export function useSubscribeAlerts() {
  return useMutation({
    mutationFn: (body: AlertSubscribe) =>
      apiRequest<AlertSubscribed>('apiUrlBase', 'alerts', { method: 'POST', body, anonymous: true }),
  });
}

/** The links of the mails: confirm an address, unsubscribe in one click. */
export function useAlertLink(kind: 'confirm' | 'unsubscribe') {
  return useMutation({
    mutationFn: (token: string) =>
      apiRequest<void>('apiUrlBase', `alerts/${kind}/${encodeURIComponent(token)}`, {
        method: 'POST',
        anonymous: true,
      }),
  });
}

const myAlertsKey = ['runner', 'alerts-off'] as const;

/** Whether I turned alerts about me off. */
export function useMyAlertsOff() {
  return useQuery({
    queryKey: myAlertsKey,
    queryFn: ({ signal }) => apiGet<{ off: boolean }>('apiUrlBase', 'me/alerts', { signal }),
  });
}

export function useSetMyAlertsOff() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (off: boolean) =>
      apiRequest<{ off: boolean }>('apiUrlBase', 'me/alerts', { method: 'PUT', body: { off } }),
    onSuccess: (answer) => client.setQueryData(myAlertsKey, answer),
  });
}
