import {
  cmsKeySchema,
  cmsNodeSchema,
  cmsPageInputSchema,
  cmsPagePatchSchema,
  cmsPageSchema,
  cmsReorderSchema,
  noContentSchema,
} from '@tempora/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { errors } from '../../../errors.ts';
import { afterAccess, checked, type ZodTypeProvider } from '../../../lib/zod-routes.ts';
import { allows, findEventOwner, requireEventAbility } from '../../../policy/policy.ts';
import { eventParams } from '../events/routes.ts';
import * as repo from './repository.ts';
import { buildTree, isVisible, toPage, wouldCycle } from './service.ts';

const treeQuery = z.object({
  db: cmsKeySchema.default('main'),
  lng: z.enum(['en', 'fr']).default('fr'),
  preview: z.enum(['0', '1']).optional(),
});
const pageParams = eventParams.extend({ key: cmsKeySchema });
const dbQuery = z.object({ db: cmsKeySchema.default('main'), preview: z.enum(['0', '1']).optional() });

/** Organisers (`update CmsPage` on the event's organisation) see drafts; spectators never. */
async function viewer(app: FastifyInstance, request: FastifyRequest, eventId: string) {
  const event = await findEventOwner(app.database, eventId);
  return { event, drafts: allows(request, 'update', 'CmsPage', { organisationId: event.organisationId }) };
}

/**
 * CMS (issue 8): a navigation tree and pages per event and db, both languages; spectators see
 * published pages only, organisers also drafts (their preview). Writes need the CmsPage ability;
 * publishing needs `publish` (owners and staff hold `manage`).
 */
export async function cmsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/api/events/:eventId/cms/tree',
    {
      schema: {
        access: 'public',
        params: eventParams,
        querystring: treeQuery,
        response: { 200: cmsNodeSchema },
      },
    },
    async (request) => {
      const { eventId: id } = request.params;
      const { db, lng, preview } = request.query;
      const { event, drafts } = await viewer(app, request, id);
      const rows = await repo.listPages(app.database, id, db, !(drafts && preview !== '0'));
      return buildTree(rows, event.name, lng);
    },
  );

  app.get(
    '/api/events/:eventId/cms/pages/:key',
    {
      schema: {
        access: 'public',
        params: pageParams,
        querystring: dbQuery,
        response: { 200: cmsPageSchema },
      },
    },
    async (request, reply) => {
      const { eventId: id, key } = request.params;
      const { db, preview } = request.query;
      const { drafts } = await viewer(app, request, id);
      const showDrafts = drafts && preview !== '0';
      const rows = await repo.listPages(app.database, id, db, !showDrafts);
      const row = rows.find((r) => r.key === key);
      if (!row || !isVisible(rows, key)) throw errors.notFound('CMS_PAGE_NOT_FOUND', `No page '${key}'`);
      if (showDrafts) reply.header('cache-control', 'private, no-store');
      return toPage(row);
    },
  );

  app.post(
    '/api/events/:eventId/cms/pages',
    {
      schema: {
        access: 'manager',
        params: eventParams,
        body: afterAccess(cmsPageInputSchema),
        response: { 201: cmsPageSchema },
      },
    },
    async (request, reply) => {
      const { eventId: id } = request.params;
      await requireEventAbility(request, app.database, id, 'create', 'CmsPage');
      const input = checked(request, 'body');
      if (input.published) await requireEventAbility(request, app.database, id, 'publish', 'CmsPage');
      if (input.parentKey && !(await repo.findPage(app.database, id, input.db, input.parentKey))) {
        throw errors.badRequest('CMS_PARENT_NOT_FOUND', `No parent page '${input.parentKey}'`);
      }
      const created = await repo.insertPage(app.database, id, {
        key: input.key,
        db: input.db,
        parentKey: input.parentKey,
        position: input.position,
        titleEn: input.title.en,
        titleFr: input.title.fr,
        bodyEn: input.body.en,
        bodyFr: input.body.fr,
        published: input.published,
      });
      if (!created) throw errors.conflict('CMS_PAGE_EXISTS', `A page '${input.key}' exists already`);
      reply.code(201);
      return toPage((await repo.findPage(app.database, id, input.db, input.key)) as repo.CmsPageRow);
    },
  );

  app.patch(
    '/api/events/:eventId/cms/pages/:key',
    {
      schema: {
        access: 'manager',
        params: pageParams,
        querystring: dbQuery,
        body: afterAccess(cmsPagePatchSchema),
        response: { 200: cmsPageSchema },
      },
    },
    async (request) => {
      const { eventId: id, key } = request.params;
      const { db } = request.query;
      await requireEventAbility(request, app.database, id, 'update', 'CmsPage');
      const patch = checked(request, 'body');
      if (patch.published !== undefined)
        await requireEventAbility(request, app.database, id, 'publish', 'CmsPage');
      const rows = await repo.listPages(app.database, id, db, false);
      if (!rows.some((r) => r.key === key)) throw errors.notFound('CMS_PAGE_NOT_FOUND', `No page '${key}'`);
      if (patch.parentKey) {
        if (!rows.some((r) => r.key === patch.parentKey)) {
          throw errors.badRequest('CMS_PARENT_NOT_FOUND', `No parent page '${patch.parentKey}'`);
        }
        if (wouldCycle(rows, key, patch.parentKey)) {
          throw errors.badRequest('CMS_TREE_CYCLE', 'A page cannot be moved under itself');
        }
      }
      await repo.updatePage(app.database, id, db, key, patch);
      return toPage((await repo.findPage(app.database, id, db, key)) as repo.CmsPageRow);
    },
  );

  app.delete(
    '/api/events/:eventId/cms/pages/:key',
    {
      schema: {
        access: 'manager',
        params: pageParams,
        querystring: dbQuery,
        response: { 204: noContentSchema },
      },
    },
    async (request, reply) => {
      const { eventId: id, key } = request.params;
      const { db } = request.query;
      await requireEventAbility(request, app.database, id, 'delete', 'CmsPage');
      const page = await repo.findPage(app.database, id, db, key);
      if (!page) throw errors.notFound('CMS_PAGE_NOT_FOUND', `No page '${key}'`);
      await app.database.transaction((sql) => repo.deletePage(sql, id, db, key, page.parentKey));
      reply.code(204);
    },
  );

  app.post(
    '/api/events/:eventId/cms/reorder',
    {
      schema: {
        access: 'manager',
        params: eventParams,
        body: afterAccess(cmsReorderSchema),
        response: { 200: cmsNodeSchema },
      },
    },
    async (request) => {
      const { eventId: id } = request.params;
      const event = await requireEventAbility(request, app.database, id, 'update', 'CmsPage');
      const { db, parentKey, keys } = checked(request, 'body');
      const rows = await repo.listPages(app.database, id, db, false);
      const siblings = rows.filter((r) => r.parentKey === parentKey).map((r) => r.key);
      if (siblings.length !== keys.length || !siblings.every((k) => keys.includes(k))) {
        throw errors.badRequest('CMS_REORDER_MISMATCH', 'keys must be exactly the children of the parent');
      }
      await app.database.transaction((sql) => repo.reorderPages(sql, id, db, keys));
      return buildTree(await repo.listPages(app.database, id, db, false), event.name, 'fr');
    },
  );
}
