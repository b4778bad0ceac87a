import crypto from 'node:crypto';
import fs from 'node:fs';
import multipart from '@fastify/multipart';
import {
  bibSchema,
  noContentSchema,
  PHOTO_MAX_BYTES,
  PHOTO_MAX_FILES,
  type Photo,
  type PhotoUploadResult,
  photoPatchSchema,
  photoSchema,
  photoUploadResultSchema,
} from '@tempora/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { errors } from '../../../errors.ts';
import { imageType } from '../../../lib/image-type.ts';
import { afterAccess, checked, fileAnswer, type ZodTypeProvider } from '../../../lib/zod-routes.ts';
import { findEventOwner, requireEventAbility } from '../../../policy/policy.ts';
import { parseInput } from '../../../validate.ts';
import { eventParams } from '../events/routes.ts';
import * as repo from './repository.ts';
import { bibsFromFileName, photoFile, processPhoto, removePhotoFiles, safeFileName } from './service.ts';

const listQuery = z.object({
  bib: bibSchema.optional(),
  q: z.string().trim().max(100).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(200),
});
const photoParams = eventParams.extend({ photoId: z.string().uuid() });
const fileParams = z.object({ photoId: z.string().uuid(), size: z.enum(['thumb', 'web']) });
const bibsField = z
  .string()
  .max(600)
  .transform((s) => s.split(/[\s,;]+/).filter(Boolean))
  .pipe(z.array(bibSchema).max(50));

/** The realtime channel of an event's photo box (public). */
export const photosChannel = (eventId: string) => `photos-${eventId}`;

/**
 * Photo box (issue 8). Staff (`create Photo` on the event's organisation) upload many files at
 * once as multipart (`files`; an optional `bibs` field placed before the files tags them all);
 * each file is checked by size and magic bytes, its EXIF time read, a thumbnail and a web size
 * written to DATA_DIR/files, and `photo-added` published on `photos-{eventId}`. Refused files are
 * listed in the answer; the others are kept. Registered in its own scope with @fastify/multipart.
 */
export async function photosRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  await app.register(multipart, {
    throwFileSizeLimit: false,
    limits: {
      fileSize: PHOTO_MAX_BYTES,
      files: PHOTO_MAX_FILES,
      fields: 5,
      fieldSize: 1000,
      parts: PHOTO_MAX_FILES + 5,
    },
  });
  const withParticipants = async () => {
    const [row] = await app.database.query<{ found: boolean }>(
      `SELECT to_regclass('participants') IS NOT NULL AS found`,
    );
    return row?.found ?? false;
  };

  app.get(
    '/api/events/:eventId/photos',
    {
      schema: {
        access: 'public',
        params: eventParams,
        querystring: listQuery,
        response: { 200: z.array(photoSchema) },
      },
    },
    async (request) => {
      const { eventId: id } = request.params;
      const query = request.query;
      await findEventOwner(app.database, id);
      return repo.listPhotos(app.database, id, { ...query, withParticipants: await withParticipants() });
    },
  );

  app.post(
    '/api/events/:eventId/photos',
    // No body schema: a multipart stream of files, read part by part below.
    { schema: { access: 'manager', params: eventParams, response: { 201: photoUploadResultSchema } } },
    async (request, reply) => {
      const { eventId: id } = request.params;
      await requireEventAbility(request, app.database, id, 'create', 'Photo');
      if (!request.isMultipart())
        throw errors.badRequest('MULTIPART_REQUIRED', 'Send the photos as multipart/form-data');
      const result: PhotoUploadResult = { photos: [], rejected: [] };
      let extraBibs: string[] = [];
      const parts = request.parts();
      // Issue 13: a malformed body (no boundary, garbage parts) is the sender's error, not a 500.
      const next = () =>
        parts.next().catch((error: { statusCode?: number; message?: string }) => {
          if (error.statusCode && error.statusCode < 500) throw error;
          throw errors.badRequest(
            'MULTIPART_INVALID',
            `Malformed multipart body: ${error.message ?? 'unreadable'}`,
          );
        });
      for (let item = await next(); !item.done; item = await next()) {
        const part = item.value;
        if (part.type === 'field') {
          if (part.fieldname === 'bibs') extraBibs = parseInput(bibsField, String(part.value), 'bibs');
          continue;
        }
        const sentName = part.filename.slice(0, 200) || 'photo';
        const buffer = await part.toBuffer().catch(() => {
          throw errors.badRequest('MULTIPART_INVALID', 'Malformed multipart body');
        });
        if (part.file.truncated) {
          result.rejected.push({ fileName: sentName, code: 'PHOTO_TOO_LARGE' });
          continue;
        }
        const type = imageType(buffer);
        if (!type) {
          result.rejected.push({ fileName: sentName, code: 'PHOTO_TYPE' });
          continue;
        }
        const fileName = safeFileName(sentName, type);
        const photoId = crypto.randomUUID();
        try {
          const processed = await processPhoto(app.config.dataDir, photoId, buffer);
          const photo = await repo.insertPhoto(app.database, {
            id: photoId,
            eventId: id,
            fileName,
            bibs: [...new Set([...bibsFromFileName(fileName), ...extraBibs.map((b) => b.toUpperCase())])],
            ...processed,
            uploadedBy: request.user?.sub ?? null,
          });
          result.photos.push(photo);
          await app.realtime.publish([photosChannel(id)], 'photo-added', photo);
        } catch {
          await removePhotoFiles(app.config.dataDir, photoId);
          result.rejected.push({ fileName, code: 'PHOTO_UNREADABLE' });
        }
      }
      if (!result.photos.length && !result.rejected.length) {
        throw errors.badRequest('PHOTO_MISSING', 'No file in the upload');
      }
      if (!result.photos.length) {
        throw errors.badRequest(
          result.rejected[0]?.code ?? 'PHOTO_TYPE',
          `No photo accepted: ${result.rejected.map((r) => `${r.fileName} (${r.code})`).join(', ')}`,
          result.rejected.map((r) => ({ field: r.fileName, message: r.code })),
        );
      }
      reply.code(201);
      return result;
    },
  );

  app.patch(
    '/api/events/:eventId/photos/:photoId',
    {
      schema: {
        access: 'manager',
        params: photoParams,
        body: afterAccess(photoPatchSchema),
        response: { 200: photoSchema },
      },
    },
    async (request) => {
      const { eventId: id, photoId } = request.params;
      await requireEventAbility(request, app.database, id, 'update', 'Photo');
      const patch = checked(request, 'body');
      const existing = await repo.findPhoto(app.database, photoId);
      if (!existing || existing.eventId !== id) throw errors.notFound('PHOTO_NOT_FOUND', 'No such photo');
      return repo.updatePhoto(app.database, photoId, {
        ...patch,
        ...(patch.bibs ? { bibs: [...new Set(patch.bibs.map((b) => b.toUpperCase()))] } : {}),
      }) as Promise<Photo>;
    },
  );

  app.delete(
    '/api/events/:eventId/photos/:photoId',
    { schema: { access: 'manager', params: photoParams, response: { 204: noContentSchema } } },
    async (request, reply) => {
      const { eventId: id, photoId } = request.params;
      await requireEventAbility(request, app.database, id, 'delete', 'Photo');
      const existing = await repo.findPhoto(app.database, photoId);
      if (!existing || existing.eventId !== id) throw errors.notFound('PHOTO_NOT_FOUND', 'No such photo');
      await repo.deletePhoto(app.database, photoId);
      await removePhotoFiles(app.config.dataDir, photoId);
      reply.code(204);
    },
  );

  // Files never change once written (a new upload gets a new id): cached for a year.
  app.get(
    '/api/photos/:photoId/:size',
    {
      schema: {
        access: 'public',
        params: fileParams,
        response: { 200: fileAnswer(['image/webp'], 'The photo at this size'), 304: noContentSchema },
      },
    },
    async (request, reply) => {
      const { photoId, size } = request.params;
      const file = photoFile(app.config.dataDir, photoId, size);
      const etag = `"${photoId}-${size}"`;
      reply.header('cache-control', 'public, max-age=31536000, immutable').header('etag', etag);
      if (request.headers['if-none-match'] === etag) return reply.code(304).send();
      const stat = await fs.promises.stat(file).catch(() => null);
      if (!stat) throw errors.notFound('PHOTO_NOT_FOUND', 'No such photo');
      reply.type('image/webp').header('content-length', stat.size);
      return reply.send(fs.createReadStream(file));
    },
  );
}
