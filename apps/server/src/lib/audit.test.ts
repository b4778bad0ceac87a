import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryDatabase } from '../../test/helpers.ts';
import type { Database } from '../db/database.ts';
import { migrate } from '../db/migrate.ts';
import { findAuditByRef, listAudit, recordAudit } from './audit.ts';

describe('the one audit trail', () => {
  let database: Database;
  beforeAll(async () => {
    database = await memoryDatabase();
    await migrate(database);
  });
  afterAll(() => database.close());

  it('records many entries in one call, lists a subject newest first, fills the actor e-mail', async () => {
    const [user] = await database.query<{ sub: string }>(
      `INSERT INTO users (email) VALUES ('ann@example.test') RETURNING sub::text AS sub`,
    );
    await recordAudit(database, [
      { subject: 'participant', subjectId: 'p1', action: 'create', actorSub: user!.sub },
      { subject: 'participant', subjectId: 'p1', action: 'update', detail: { changes: [{ field: 'club' }] } },
      { subject: 'participant', subjectId: 'p2', action: 'create', actorEmail: 'bob@example.test' },
    ]);
    const p1 = await listAudit(database, { subject: 'participant', subjectId: 'p1', limit: 10 });
    expect(p1.map((e) => e.action)).toEqual(['update', 'create']);
    expect(p1[1]).toMatchObject({ actorSub: user!.sub, actorEmail: 'ann@example.test', detail: {} });
    expect(p1[0]).toMatchObject({ actorEmail: '', detail: { changes: [{ field: 'club' }] } });
    expect(await listAudit(database, { subject: 'participant', subjectId: 'p1', limit: 1 })).toHaveLength(1);
    expect(await listAudit(database, { subject: 'payment', subjectId: 'p1', limit: 10 })).toEqual([]);
  });

  it("links the desk's undo both ways by the writer's ref", async () => {
    const first = '44444444-4444-4444-8444-444444444444';
    const undo = '55555555-5555-4555-8555-555555555555';
    await recordAudit(database, [
      { subject: 'passing', subjectId: 'r1', scope: 'ctx', ref: first, action: 'void' },
    ]);
    await recordAudit(database, [
      { subject: 'passing', subjectId: 'r1', scope: 'ctx', ref: undo, action: 'restore', undoOf: first },
    ]);
    expect(await findAuditByRef(database, 'ctx', first)).toMatchObject({
      id: first,
      undoneBy: undo,
      undoOf: null,
    });
    expect(await findAuditByRef(database, 'ctx', undo)).toMatchObject({
      id: undo,
      undoOf: first,
      undoneBy: null,
    });
    expect(await findAuditByRef(database, 'other', first)).toBeNull();
    expect(await findAuditByRef(database, 'ctx', 'not-a-uuid')).toBeNull();
    const log = await listAudit(database, { subject: 'passing', scope: 'ctx', limit: 10 });
    expect(log.map((e) => e.id)).toEqual([undo, first]);
  });
});
