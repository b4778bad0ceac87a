import { z } from 'zod';

/**
 * Alerts for followers (issue 40): e-mail (the address confirmed once) and web push (VAPID, RFC
 * 8291 encryption), at the points the follower chooses, once per passing.
 */

const points = z
  .array(z.string().regex(/^[A-Za-z0-9_-]{1,64}$/))
  .min(1)
  .max(50);
const base = {
  trackingKey: z.string().min(1).max(64),
  /** Point keys (`start`, a split's key, the finish's key). */
  points,
  lng: z.enum(['en', 'fr']).default('fr'),
};

/** A browser's push subscription as `PushSubscription.toJSON()` gives it. */
export const pushSubscriptionSchema = z.object({
  endpoint: z.url().max(2000),
  keys: z.object({
    p256dh: z.string().regex(/^[A-Za-z0-9_-]{80,100}$/),
    auth: z.string().regex(/^[A-Za-z0-9_-]{16,32}$/),
  }),
});

export const alertSubscribeSchema = z.discriminatedUnion('channel', [
  z.object({ ...base, channel: z.literal('email'), email: z.email().max(200) }).strict(),
  z.object({ ...base, channel: z.literal('push'), subscription: pushSubscriptionSchema }).strict(),
]);
export type AlertSubscribe = z.input<typeof alertSubscribeSchema>;

export const alertSubscribedSchema = z.object({
  channel: z.enum(['email', 'push']),
  /** An e-mail address not confirmed yet: its alerts start once the link mailed is opened. */
  confirmationNeeded: z.boolean(),
});
export type AlertSubscribed = z.infer<typeof alertSubscribedSchema>;

export const vapidKeySchema = z.object({ publicKey: z.string() });
export const alertTokenSchema = z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{16,64}$/) });
export const myAlertsSchema = z.object({ off: z.boolean() });

/** What a push message carries (the service worker shows it). */
export interface AlertPush {
  title: string;
  body: string;
  /** The runner's live card. */
  url: string;
  /** One click: no more alerts of this subscription. */
  unsubscribeUrl: string;
  /** The message's unsubscribe action, in the follower's language. */
  unsubscribeLabel: string;
  corrected: boolean;
  pointKey: string;
}
