import { noContentSchema, translationLabelsSchema, translationParamsSchema } from '@tempora/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { errors } from '../../errors.ts';
import { serialized, type ZodTypeProvider } from '../../lib/zod-routes.ts';
import { labelsFor, translationLanguages, translationUis } from './service.ts';

const paramsSchema = z.object({
  ui: z.enum(translationUis),
  ns: z.string().regex(/^[a-z][a-z0-9-]{0,39}$/),
  lng: z.enum(translationLanguages),
});

/**
 * Translation labels (spec §7 `GET {eventsApiUrlBase}translation/i18n/{ui}/{namespace}/{lng}`,
 * e.g. `acn/inscriptions/fr`): a key → text map, cacheable with an ETag; anything unknown: 404.
 */
export async function translationRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/api/translation/i18n/:ui/:ns/:lng',
    {
      schema: {
        access: 'public',
        params: translationParamsSchema,
        response: { 200: translationLabelsSchema, 304: noContentSchema },
      },
    },
    async (request, reply) => {
      // A path naming no label set (unknown variant, namespace or language) is a 404, not a 400.
      const params = paramsSchema.safeParse(request.params);
      const set = params.success ? labelsFor(params.data.ui, params.data.ns, params.data.lng) : null;
      if (!set) throw errors.notFound('TRANSLATION_NOT_FOUND', 'No such translation labels');
      reply.header('etag', set.etag);
      reply.header('cache-control', 'public, max-age=300');
      if (request.headers['if-none-match'] === set.etag) return reply.status(304).send();
      return reply.type('application/json; charset=utf-8').send(serialized(set.body));
    },
  );
}
