import type { FastifyInstance, InjectOptions } from 'fastify';
import { testSettings } from '../../src/modules/deposits/test-helpers.ts';
import { registrationSettings, runner } from '../../src/modules/entries/test-helpers.ts';
import { captureMails, createTestUser } from '../identity-helpers.ts';
import { DEMO_ORG } from './route-table.ts';

/**
 * Real rows of the demo organisation for every route with an id (issue 25: the matrix used ids
 * that did not exist, so every caller got 404 and nothing was proven). Seen from the matrix's
 * stranger and other organiser, these are another organisation's rows: a refusal must come
 * from the access check, not from a missing row.
 *
 * Made through the API as the demo organisation's people would (a deposit with an entry, a
 * submitted one with its order, a webhook, a confirmation document with a row and a confirmed
 * one billed with an order and its invoice, a connector, an
 * invitation), or read from the demo seed (participants,
 * contacts, streams, reports, pages, members). Some kinds have no API that fits a test and are
 * inserted in SQL: a photo (the upload is multipart image processing), an import upload, a
 * bank-statement line (the queue's), a passing-audit line and one webhook delivery (a real one
 * would be sent).
 */
export interface ForeignRows {
  /** Path params for a route (`METHOD /url`), overriding route-access's placeholders. */
  paramsFor(url: string): Record<string, string>;
  /** The names of the params that now hold a real row, per route (for the counts). */
  realParams(url: string): string[];
}

const EVENT = 'demo-city-run';
const DB = 'demo-city-run-10k';
const RACE = 'city-10k';

export async function createForeignRows(app: FastifyInstance): Promise<ForeignRows> {
  const owner = await createTestUser(app, { memberships: [{ organisationId: DEMO_ORG, role: 'owner' }] });
  const captain = await createTestUser(app, { profileComplete: true });
  const mails = captureMails(app);
  const ok = async (method: InjectOptions['method'], url: string, who: string, payload?: unknown) => {
    const res = await app.inject({
      method,
      url,
      headers: {
        authorization: who,
        ...(typeof payload === 'string' || Buffer.isBuffer(payload) ? { 'content-type': 'text/csv' } : {}),
      },
      ...(payload === undefined ? {} : { payload: payload as never }),
    });
    if (res.statusCode >= 300)
      throw new Error(`matrix setup: ${method} ${url} → ${res.statusCode} ${res.body}`);
    // biome-ignore lint/suspicious/noExplicitAny: setup reads a few fields of each answer
    return (res.body ? res.json() : null) as any;
  };
  const one = async (sql: string, params: unknown[] = []) => {
    const [row] = await app.database.query<{ id: string }>(sql, params);
    if (!row) throw new Error(`matrix setup: no row for ${sql}`);
    return String(row.id);
  };

  // Deposits and payments: a collecting deposit with an entry, and a submitted one with its order.
  await ok('PUT', `/api/payments/staff/events/${EVENT}/settings`, owner.authorization, testSettings());
  const newDeposit = () =>
    ok('POST', '/api/deposits', captain.authorization, {
      eventId: EVENT,
      organisationName: 'Matrix team',
      type: 'company',
    });
  const deposit = await newDeposit();
  const withEntry = await ok('POST', `/api/deposits/${deposit.id}/entries`, captain.authorization, {
    raceId: RACE,
    placeholder: true,
  });
  const submitted = await newDeposit();
  await ok('POST', `/api/deposits/${submitted.id}/entries`, captain.authorization, {
    raceId: RACE,
    placeholder: true,
  });
  const order = (await ok('POST', `/api/deposits/${submitted.id}/submit`, captain.authorization)).orders[0];

  // Online entries (issue 38): the registration set up, a runner's order holding an entry.
  await ok(
    'PUT',
    `/api/entries/staff/events/${EVENT}/settings`,
    owner.authorization,
    registrationSettings({ places: 100 }),
  );
  const entryOrder = await ok('POST', `/api/entries/events/${EVENT}/orders`, captain.authorization, {
    runners: [runner(0, { email: captain.email })],
  });
  // A relay team of the demo event (team entries): its link token.
  const team = await ok('POST', `/api/entries/events/${EVENT}/teams`, captain.authorization, {
    raceId: 'city-marathon',
    name: 'Matrix relay',
    pays: 'captain',
  });

  // A webhook of the demo event (never delivered: inactive) and one delivery in its log.
  const webhook = await ok('POST', `/api/webhooks/events/${EVENT}`, owner.authorization, {
    // A public address literal: creation resolves host names, and the test must not need DNS.
    url: 'https://192.0.32.10/matrix',
    types: ['passing.stored'],
  });
  await ok('PATCH', `/api/webhooks/${webhook.id}`, owner.authorization, { active: false });
  const deliveryId = await one(
    `INSERT INTO webhook_deliveries (webhook_id, type, dedupe_key, payload, state)
     VALUES ($1, 'passing.stored', 'matrix', '{}', 'delivered') RETURNING id::text AS id`,
    [webhook.id],
  );

  // A confirmation document of the demo event with one row.
  const document = await ok('POST', '/api/confirmation/documents', owner.authorization, {
    eventId: EVENT,
    title: 'Matrix',
    senderName: 'Matrix school',
    senderKind: 'school',
    contactName: 'Ms Teacher',
    contactEmail: 'matrix@school.test',
    defaultRaceId: RACE,
  });
  await ok(
    'POST',
    `/api/confirmation/documents/${document.id}/file?name=matrix.csv`,
    owner.authorization,
    Buffer.from('Prénom;Nom;Sexe;Naissance\nAda;Lovelace;F;2012-12-10\n'),
  );
  await ok('PUT', `/api/confirmation/documents/${document.id}/mapping`, owner.authorization, {
    mapping: { firstName: 'Prénom', lastName: 'Nom', gender: 'Sexe', birthDate: 'Naissance' },
  });
  const rows = await ok('GET', `/api/confirmation/documents/${document.id}/rows`, owner.authorization);
  // A confirmed document whose fees became an order with an invoice (issue 29).
  await ok('PUT', `/api/confirmation/races/${RACE}/settings`, owner.authorization, {
    bibFrom: null,
    bibTo: null,
    capacity: null,
    tariffs: [{ until: null, priceCents: 1000 }],
  });
  const billed = await ok('POST', '/api/confirmation/documents', owner.authorization, {
    eventId: EVENT,
    title: 'Matrix billed',
    senderName: 'Matrix billed school',
    senderKind: 'school',
    contactName: 'Mr Teacher',
    contactEmail: 'billed@school.test',
    defaultRaceId: RACE,
  });
  await ok(
    'POST',
    `/api/confirmation/documents/${billed.id}/file?name=billed.csv`,
    owner.authorization,
    Buffer.from('Prénom;Nom;Sexe;Naissance\nGrace;Hopper;F;1990-12-09\n'),
  );
  await ok('PUT', `/api/confirmation/documents/${billed.id}/mapping`, owner.authorization, {
    mapping: { firstName: 'Prénom', lastName: 'Nom', gender: 'Sexe', birthDate: 'Naissance' },
  });
  await ok('POST', `/api/confirmation/documents/${billed.id}/confirm`, owner.authorization, {});
  const billedOrder = await ok('GET', `/api/confirmation/documents/${billed.id}/order`, owner.authorization);

  // Race day: a connector (disabled: it opens nothing) and a manual passing's audit line.
  const connector = await ok('POST', `/api/raceday/contexts/${DB}/devices`, owner.authorization, {
    name: 'Matrix',
    kind: 'tempora',
    enabled: false,
  });
  const auditId = await one(
    `INSERT INTO audit_trail (ref, subject, subject_id, scope, action, detail)
     VALUES (gen_random_uuid(), 'passing', '1', $1, 'insert', jsonb_build_object('bib', '1', 'raceId', $2::text, 'reason', 'matrix'))
     RETURNING ref::text AS id`,
    [DB, RACE],
  );

  // The organisation: an invitation (its token read from the mail) and a member.
  const invitation = await ok(
    'POST',
    `/api/console/organisations/${DEMO_ORG}/invitations`,
    owner.authorization,
    { email: 'matrix-invitee@example.test', role: 'staff', lng: 'en' },
  );
  const invited = mails.sent.findLast((m) => m.to === 'matrix-invitee@example.test');
  const token = /\/invitations\/([^/?#\s]+)/.exec(invited?.link ?? invited?.text ?? '')?.[1];
  // A member of its own (not one of the matrix's callers: a timekeeper may remove themself).
  const memberSub = (
    await createTestUser(app, { memberships: [{ organisationId: DEMO_ORG, role: 'staff' }] })
  ).sub;

  // Seeded or SQL-made rows of the demo event.
  const participantId = await one(
    `SELECT p.id::text AS id FROM participants p JOIN races r ON r.id = p.race_id JOIN contexts c ON c.db = r.db
      WHERE c.event_id = $1 LIMIT 1`,
    [EVENT],
  );
  // Issue 40: a result of a runner's account (another runner's row for every matrix caller).
  const runnerSub = (await createTestUser(app)).sub;
  await app.database.query('UPDATE participants SET account_id = $1 WHERE id = $2', [
    runnerSub,
    participantId,
  ]);
  const claimId = await one(
    `INSERT INTO runner_claims (participant_id, account_id, method)
     SELECT p.id, $2, 'organiser' FROM participants p JOIN races r ON r.id = p.race_id JOIN contexts c ON c.db = r.db
      WHERE c.event_id = $1 AND p.account_id IS NULL LIMIT 1 RETURNING id::text AS id`,
    [EVENT, runnerSub],
  );
  // Issue 39: a runner handed out twice (a conflict to resolve).
  const conflictId = await one(
    `WITH kept AS (
       INSERT INTO pickup_handouts (event_id, participant_id, race_id, op_id, state, handed_at)
       SELECT $1, p.id, p.race_id, 'matrix-kept-1', 'kept', now() FROM participants p WHERE p.id = $2::uuid)
     INSERT INTO pickup_handouts (event_id, participant_id, race_id, op_id, state, handed_at)
     SELECT $1, p.id, p.race_id, 'matrix-conflict-1', 'conflict', now() FROM participants p WHERE p.id = $2::uuid
     RETURNING id::text AS id`,
    [EVENT, participantId],
  );
  const contactId = await one('SELECT id::text AS id FROM contacts WHERE event_id = $1 LIMIT 1', [EVENT]);
  const streamId = await one('SELECT id::text AS id FROM streams WHERE event_id = $1 LIMIT 1', [EVENT]);
  const photoId = await one(
    `INSERT INTO photos (event_id, file_name, width, height) VALUES ($1, 'matrix.jpg', 10, 10) RETURNING id::text AS id`,
    [EVENT],
  );
  const pageKey = await one('SELECT key AS id FROM cms_pages WHERE event_id = $1 LIMIT 1', [EVENT]);
  const reportKey = await one(
    `SELECT r.key AS id FROM reports r JOIN report_groups g ON g.db = r.db AND g.key = r.group_key
      WHERE r.db = $1 LIMIT 1`,
    [DB],
  );
  const uploadId = await one(
    `INSERT INTO import_uploads (event_id, file_name, format, data) VALUES ($1, 'matrix.csv', 'csv', $2)
     RETURNING id::text AS id`,
    [EVENT, Buffer.from('bib;first;last\n1;A;B\n')],
  );
  // Issue 29: a participant import in the history (refused rows, undo).
  const importId = await one(
    `INSERT INTO participant_imports (event_id, race_id, file_name, imported, total)
     VALUES ($1, 'matrix-race', 'matrix.csv', 0, 0) RETURNING id::text AS id`,
    [EVENT],
  );
  const statementId = await one(
    `INSERT INTO bank_statements (organisation_id, format, file_name, account, imported_by, movements, matched)
     VALUES ($1, 'camt053', 'matrix.xml', 'BE68539007547034', $2, 1, 0) RETURNING id::text AS id`,
    [DEMO_ORG, owner.sub],
  );
  const lineId = await one(
    `INSERT INTO bank_lines (statement_id, organisation_id, bank_ref, amount_cents, state)
     VALUES ($1, $2, 'MATRIX-1', 100, 'manual') RETURNING id::text AS id`,
    [statementId, DEMO_ORG],
  );

  const byPrefix: [RegExp, Record<string, string>][] = [
    [/^\/api\/deposits\/:id/, { id: deposit.id, entryId: String(withEntry.entries[0].id) }],
    [/^\/api\/deposits\/join\/:code/, { code: deposit.joinCode }],
    [/^\/api\/entries\/races\/:race/, { race: RACE }],
    [/^\/api\/entries\/events\/:event\/teams\/:teamToken/, { teamToken: team.token }],
    [/^\/api\/entries\/teams\/:teamToken/, { teamToken: team.token }],
    [/^\/api\/entries\/staff\/events\/:event\/races\/:race/, { race: RACE }],
    [/^\/api\/entries\/orders\/:id/, { id: String(entryOrder.orderId) }],
    [/^\/api\/entries\/entry\/:code/, { code: entryOrder.entries[0].code }],
    [/^\/api\/entries\/staff\/events\/:event\/entries\/:code/, { code: entryOrder.entries[0].code }],
    [/^\/api\/pickup\/events\/:event\/entries\/:code/, { code: entryOrder.entries[0].code }],
    [/^\/api\/pickup\/events\/:event\/conflicts\/:id/, { id: conflictId }],
    [/^\/api\/payments\/orders\/:id\/invoice/, { id: String(billedOrder.orderId) }],
    [/^\/api\/payments\/orders\/:id/, { id: String(order.id) }],
    [/^\/api\/confirmation\/documents\/:id\/order/, { id: billed.id }],
    [/^\/api\/webhooks\/:id/, { id: webhook.id, deliveryId }],
    [/^\/api\/confirmation\/documents\/:id/, { id: document.id, rowId: String(rows[0].id) }],
    [/^\/api\/raceday\/contexts\/:db\/devices\/:deviceId/, { deviceId: connector.id }],
    [/^\/api\/raceday\/contexts\/:db\/audit\/:auditId/, { auditId }],
    [/^\/api\/console\/organisations\/:orgId\/invitations\/:id/, { id: invitation.id }],
    [/^\/api\/console\/invitations\/:token/, token ? { token: decodeURIComponent(token) } : {}],
    [/^\/api\/console\/organisations\/:orgId\/members\/:sub/, { sub: memberSub }],
    [/^\/api\/console\/events\/:eventId\/participants\/:id/, { id: participantId }],
    [/^\/api\/me\/results\/:participantId/, { participantId }],
    [/^\/api\/me\/claims\/:claimId/, { claimId }],
    [/^\/api\/console\/events\/:eventId\/claims\/:claimId/, { claimId }],
    [/^\/api\/console\/events\/:eventId\/imports\/:uploadId/, { uploadId }],
    [/^\/api\/console\/events\/:eventId\/import-history\/:importId/, { importId }],
    [/^\/api\/events\/:eventId\/contacts\/:contactId/, { contactId }],
    [/^\/api\/events\/:eventId\/streams\/:streamId/, { streamId }],
    [/^\/api\/events\/:eventId\/photos\/:photoId/, { photoId }],
    [/^\/api\/events\/:eventId\/cms\/pages\/:key/, { key: pageKey }],
    [/^\/api\/console\/races\/:raceId\/reports\/:key/, { key: reportKey }],
    [/^\/api\/payments\/staff\/events\/:event\/queue\/:lineId/, { lineId }],
  ];
  const find = (url: string) => byPrefix.find(([re]) => re.test(url))?.[1] ?? {};
  return {
    paramsFor: find,
    realParams: (url) => Object.keys(find(url)).filter((k) => url.includes(`:${k}`)),
  };
}
