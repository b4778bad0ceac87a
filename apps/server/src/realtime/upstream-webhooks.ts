import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError, errors } from '../errors.ts';
import { parseInput } from '../validate.ts';
import { hmacHex, safeEqual } from './protocol.ts';

/** Where the upstream Pusher service posts its webhooks (its dashboard's webhook URL). */
export const UPSTREAM_WEBHOOK_PATH = '/api/realtime/webhooks';

const INVALID_JSON = Symbol('invalid JSON');

/** Pusher's webhook body ("Webhooks"): other event kinds than occupancy are accepted and ignored. */
const webhookBody = z.object({
  time_ms: z.number(),
  events: z.array(z.object({ name: z.string(), channel: z.string().optional() }).passthrough()).max(1000),
});

export interface UpstreamWebhookOptions {
  key: string;
  secret: string;
  /** A channel became occupied (`channel_occupied`) or vacated (`channel_vacated`) upstream. */
  occupancy(channel: string, occupied: boolean): void;
}

/**
 * `POST /api/realtime/webhooks` (issue 28, `pusher-http` adapter): the upstream Pusher service's
 * `channel_occupied` / `channel_vacated` webhooks, so a channel's first subscriber is known at
 * once instead of at the next `GET /channels`. Pusher signs each delivery ("Webhooks",
 * "Authentication"): `X-Pusher-Key` is the app key and `X-Pusher-Signature` the hex HMAC-SHA256 of
 * the exact body with the app secret; anything else is refused with 401 before the body is read.
 */
export async function upstreamWebhookRoutes(app: FastifyInstance, opts: UpstreamWebhookOptions) {
  const rawBodies = new WeakMap<FastifyRequest, string>();
  // The signature covers the exact body bytes: keep them before parsing.
  app.removeContentTypeParser(['application/json']);
  app.addContentTypeParser('*', { parseAs: 'string' }, (request, body, done) => {
    rawBodies.set(request, body as string);
    try {
      done(null, JSON.parse(body as string));
    } catch {
      done(null, INVALID_JSON); // reported after the signature check: strangers learn nothing
    }
  });

  app.post(UPSTREAM_WEBHOOK_PATH, { bodyLimit: 1024 * 1024 }, async (request, reply) => {
    const key = request.headers['x-pusher-key'];
    const signature = request.headers['x-pusher-signature'];
    const raw = rawBodies.get(request) ?? '';
    if (
      typeof key !== 'string' ||
      typeof signature !== 'string' ||
      !safeEqual(key, opts.key) ||
      !safeEqual(signature.toLowerCase(), hmacHex(opts.secret, raw))
    ) {
      throw new AppError(401, 'REALTIME_WEBHOOK_SIGNATURE_INVALID', 'Invalid webhook key or signature');
    }
    if (request.body === INVALID_JSON) throw errors.badRequest('INVALID_JSON', 'The body is not valid JSON');
    const { events } = parseInput(webhookBody, request.body);
    for (const event of events) {
      if (!event.channel) continue;
      if (event.name === 'channel_occupied') opts.occupancy(event.channel, true);
      else if (event.name === 'channel_vacated') opts.occupancy(event.channel, false);
    }
    return reply.code(200).send({});
  });
}
