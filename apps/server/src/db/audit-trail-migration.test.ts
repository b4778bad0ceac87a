import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { backends } from '../../test/helpers.ts';
import { migrate } from './migrate.ts';

const dir = path.join(import.meta.dirname, 'migrations');

// Migration 0045 (issue 30) moves the four trails into `audit_trail`, keeping times and actors.
describe.each(backends().map((b) => [b.name, b] as const))(
  'audit_trail migration on %s',
  (_name, backend) => {
    const cleanups: (() => Promise<void>)[] = [];
    afterAll(async () => {
      for (const c of cleanups.reverse()) await c();
    });

    it('copies every row of the four old trails and drops them', async () => {
      const before = fs.mkdtempSync(path.join(os.tmpdir(), 'audit-migrations-'));
      cleanups.push(async () => fs.rmSync(before, { recursive: true, force: true }));
      for (const f of fs.readdirSync(dir).filter((f) => f.endsWith('.sql') && f < '0045'))
        fs.copyFileSync(path.join(dir, f), path.join(before, f));
      const fresh = await backend.fresh();
      cleanups.push(fresh.drop);
      const database = await fresh.open();
      cleanups.push(() => database.close());
      await migrate(database, before);

      const one = async (text: string, params: unknown[] = []) =>
        (await database.query<{ v: string }>(text, params))[0]!.v;
      const org = await one(
        `INSERT INTO organisations (slug, name) VALUES ('audit', 'Audit') RETURNING id AS v`,
      );
      await database.query(
        `INSERT INTO events (id, organisation_id, name, start_date, end_date) VALUES ('ev', $1, 'Ev', '2026-05-01', '2026-05-01')`,
        [org],
      );
      await database.query(`INSERT INTO contexts (db, event_id, name) VALUES ('ctx', 'ev', 'Ctx')`);
      await database.query(
        `INSERT INTO races (id, db, name, race_date, distance_m, start_type) VALUES ('r1', 'ctx', 'R', '2026-05-01', 10000, 'mass')`,
      );
      const sub = await one(`INSERT INTO users (email) VALUES ('ann@example.test') RETURNING sub AS v`);
      const participant = '11111111-1111-4111-8111-111111111111';
      await database.query(
        `INSERT INTO participant_audit (participant_id, race_id, action, changes, actor_sub, actor_email, at)
       VALUES ($1, 'r1', 'update', '[{"field":"club","before":"A","after":"B"}]', $2, 'ann@example.test', '2026-01-02T03:04:05Z')`,
        [participant, sub],
      );
      const voided = '22222222-2222-4222-8222-222222222222';
      const undo = '33333333-3333-4333-8333-333333333333';
      await database.query(
        `INSERT INTO passing_audit (id, db, action, passing_id, bib, race_id, before, after, reason, actor, undone_by, at)
       VALUES ($1, 'ctx', 'void', 'p1', '7', 'r1', '{"timeMs":1}', NULL, 'double read', $3, $2, '2026-01-02T04:00:00Z'),
              ($2, 'ctx', 'restore', 'p1', '7', 'r1', NULL, '{"id":"p1"}', 'oops', $3, NULL, '2026-01-02T04:01:00Z')`,
        [voided, undo, sub],
      );
      await database.query('UPDATE passing_audit SET undo_of = $1 WHERE id = $2', [voided, undo]);
      const document = await one(
        `INSERT INTO confirmation_documents (event_id, title, sender_name, sender_kind, contact_email)
       VALUES ('ev', 'Club list', 'Club', 'club', 'club@example.test') RETURNING id AS v`,
      );
      await database.query(
        `INSERT INTO confirmation_history (document_id, actor_sub, actor_email, action, detail, at)
       VALUES ($1, $2, 'ann@example.test', 'upload', '{"version":1}', '2026-01-03T00:00:00Z')`,
        [document, sub],
      );
      await database.query(
        `INSERT INTO payment_audit (organisation_id, action, amount_cents, actor_sub, note, created_at)
       VALUES ($1, 'ignore', 1500, $2, 'not ours', '2026-01-04T00:00:00Z')`,
        [org, sub],
      );

      expect(await migrate(database, dir)).toEqual(
        fs.readdirSync(dir).filter((f) => f.endsWith('.sql') && f >= '0045'),
      );
      const rows = await database.query<Record<string, unknown>>(
        `SELECT ref::text AS ref, organisation_id::text AS org, event_id AS "eventId", subject, subject_id AS "subjectId",
              scope, action, actor_sub AS "actorSub", actor_email AS "actorEmail", detail,
              undo_of::text AS "undoOf", undone_by::text AS "undoneBy",
              to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS at
         FROM audit_trail ORDER BY at`,
      );
      expect(rows).toEqual([
        {
          ref: null,
          org,
          eventId: 'ev',
          subject: 'participant',
          subjectId: participant,
          scope: 'r1',
          action: 'update',
          actorSub: sub,
          actorEmail: 'ann@example.test',
          detail: { changes: [{ field: 'club', before: 'A', after: 'B' }] },
          undoOf: null,
          undoneBy: null,
          at: '2026-01-02T03:04:05Z',
        },
        {
          ref: voided,
          org,
          eventId: 'ev',
          subject: 'passing',
          subjectId: 'p1',
          scope: 'ctx',
          action: 'void',
          actorSub: sub,
          actorEmail: 'ann@example.test',
          detail: {
            passingId: 'p1',
            bib: '7',
            raceId: 'r1',
            before: { timeMs: 1 },
            after: null,
            reason: 'double read',
          },
          undoOf: null,
          undoneBy: undo,
          at: '2026-01-02T04:00:00Z',
        },
        expect.objectContaining({ ref: undo, action: 'restore', undoOf: voided, undoneBy: null }),
        expect.objectContaining({
          org,
          eventId: 'ev',
          subject: 'confirmation',
          subjectId: document,
          action: 'upload',
          actorSub: sub,
          actorEmail: 'ann@example.test',
          detail: { version: 1 },
          at: '2026-01-03T00:00:00Z',
        }),
        expect.objectContaining({
          org,
          eventId: null,
          subject: 'payment',
          subjectId: '',
          action: 'ignore',
          actorSub: sub,
          actorEmail: 'ann@example.test',
          detail: { orderId: null, bankLineId: null, amountCents: 1500, note: 'not ours' },
          at: '2026-01-04T00:00:00Z',
        }),
      ]);
      const old = await database.query(
        `SELECT table_name FROM information_schema.tables
        WHERE table_name IN ('participant_audit', 'passing_audit', 'payment_audit', 'confirmation_history')`,
      );
      expect(old).toEqual([]);
    });
  },
);
