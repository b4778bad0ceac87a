import type { DepositDetail, StatementImportResult } from '@tempora/contracts';
import { formatStructured, isValidStructured, structuredFromNumber } from '@tempora/domain';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../test/helpers.ts';
import { sampleCamt053, sampleCoda } from '../payments/statements/samples.ts';
import { depositCast, EVENT, MARATHON, TEN_K } from './test-helpers.ts';

type Cast = Awaited<ReturnType<typeof depositCast>>;
const auth = (u: { authorization: string }) => ({ authorization: u.authorization });

describe('group deposits API', () => {
  let app: FastifyInstance;
  let cast: Cast;
  let deposit: DepositDetail;

  beforeAll(async () => {
    app = await buildTestApp();
    cast = await depositCast(app);
  });
  afterAll(() => app.close());

  const call = async (
    method: string,
    url: string,
    who?: { authorization: string } | null,
    payload?: unknown,
  ) => {
    const res = await app.inject({
      method: method as 'GET',
      url,
      ...(who ? { headers: auth(who) } : {}),
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
    return {
      status: res.statusCode,
      body: res.body
        ? (JSON.parse(res.body) as Record<string, unknown> & DepositDetail)
        : ({} as DepositDetail & Record<string, unknown>),
    };
  };

  it('refuses an anonymous caller, validates input, and lets a signed-in user create a company deposit', async () => {
    const input = {
      eventId: EVENT,
      organisationName: 'Acme SA',
      vat: 'BE0123456789',
      type: 'company',
      payerMode: 'captain',
      minTeamSize: 2,
    };
    expect((await call('POST', '/api/deposits', null, input)).status).toBe(401);
    const bad = await call('POST', '/api/deposits', cast.captain, { ...input, type: 'army' });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('VALIDATION_FAILED');
    const created = await call('POST', '/api/deposits', cast.captain, input);
    expect(created.status).toBe(201);
    deposit = created.body;
    expect(deposit).toMatchObject({ state: 'collecting', role: 'captain', type: 'company', editable: true });
    expect(deposit.joinCode).toMatch(/^[A-Z2-9]{8}$/);
  });

  it('shares a join code: signed-in users see the team and join as members', async () => {
    // Issue 25: anonymous callers learn nothing; a joiner sees the event, the team, the deadline.
    expect((await call('GET', `/api/deposits/join/${deposit.joinCode}`)).status).toBe(401);
    const preview = await call('GET', `/api/deposits/join/${deposit.joinCode}`, cast.bob);
    expect(preview.status).toBe(200);
    expect(preview.body).toEqual({
      eventId: EVENT,
      eventName: expect.any(String),
      teamName: 'Acme SA',
      deadline: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      open: true,
    });
    expect(JSON.stringify(preview.body)).not.toContain(cast.captain.email.replace(/@.*/, ''));
    expect((await call('POST', '/api/deposits/join', null, { code: deposit.joinCode })).status).toBe(401);
    expect((await call('POST', '/api/deposits/join', cast.ann, { code: 'NOPE1234' })).status).toBe(404);
    const joined = await call('POST', '/api/deposits/join', cast.ann, { code: deposit.joinCode });
    expect(joined.body).toMatchObject({ role: 'member', joinCode: null });
    expect((await call('POST', '/api/deposits/join', cast.bob, { code: deposit.joinCode })).status).toBe(200);
    // The link's host is the site's (PUBLIC_URL), never the caller's `?origin=` (issue 29).
    const share = await call(
      'GET',
      `/api/deposits/${deposit.id}/share?origin=https://evil.example`,
      cast.captain,
    );
    expect(share.body.url).toBe(
      `${app.config.publicUrl}/#/deposit/${EVENT}/${deposit.id}/collect?code=${deposit.joinCode}`,
    );
    expect(share.body.url).not.toContain('evil');
    expect(String(share.body.qrSvg)).toMatch(/^<svg/);
    expect((await call('GET', `/api/deposits/${deposit.id}/share`, cast.ann)).status).toBe(403);
  });

  it('enforces who sees and changes the deposit', async () => {
    expect((await call('GET', `/api/deposits/${deposit.id}`)).status).toBe(401);
    expect((await call('GET', `/api/deposits/${deposit.id}`, cast.stranger)).status).toBe(404);
    expect((await call('GET', `/api/deposits/${deposit.id}`, cast.otherOrg)).status).toBe(404);
    expect((await call('GET', '/api/deposits/999999', cast.captain)).status).toBe(404);
    expect((await call('GET', '/api/deposits/abc', cast.captain)).status).toBe(400);
    expect((await call('GET', `/api/deposits/${deposit.id}`, cast.staff)).body.role).toBe('staff');
    expect(
      (await call('PATCH', `/api/deposits/${deposit.id}`, cast.ann, { organisationName: 'Hijack' })).status,
    ).toBe(403);
    expect((await call('POST', `/api/deposits/${deposit.id}/submit`, cast.ann)).status).toBe(403);
    expect((await call('POST', `/api/deposits/${deposit.id}/submit`, cast.staff)).status).toBe(403);
    expect((await call('GET', `/api/deposits/events/${EVENT}/all`, cast.otherOrg)).status).toBe(403);
    expect((await call('GET', `/api/deposits/events/${EVENT}/all`, cast.staff)).body).toHaveLength(1);
    expect((await call('GET', `/api/payments/staff/events/${EVENT}/orders`, cast.captain)).status).toBe(403);
    expect((await call('GET', `/api/payments/staff/events/${EVENT}/orders`)).status).toBe(401);
  });

  it('takes entries: a member’s own, placeholders and the captain’s; validates race, category and duplicates', async () => {
    const ann = {
      raceId: TEN_K,
      firstName: 'Ann',
      lastName: 'Peeters',
      gender: 'F',
      birthDate: '1990-04-02',
      email: 'ann@acme.test',
    };
    const mine = await call('POST', `/api/deposits/${deposit.id}/entries`, cast.ann, ann);
    expect(mine.status).toBe(201);
    expect(mine.body.entries[0]).toMatchObject({ state: 'valid', mine: true, category: 'F35' });
    expect(
      (await call('POST', `/api/deposits/${deposit.id}/entries`, cast.ann, { ...ann, firstName: 'Other' }))
        .body.code,
    ).toBe('ENTRY_EXISTS');
    expect((await call('POST', `/api/deposits/${deposit.id}/entries`, cast.captain, ann)).body.code).toBe(
      'ENTRY_DUPLICATE',
    );
    expect(
      (
        await call('POST', `/api/deposits/${deposit.id}/entries`, cast.captain, {
          ...ann,
          firstName: 'Y',
          raceId: 'nope',
        })
      ).body.code,
    ).toBe('RACE_NOT_FOUND');
    expect(
      (
        await call('POST', `/api/deposits/${deposit.id}/entries`, cast.captain, {
          ...ann,
          firstName: 'Z',
          gender: 'X',
        })
      ).body.code,
    ).toBe('NO_CATEGORY');
    expect((await call('POST', `/api/deposits/${deposit.id}/entries`, cast.stranger, ann)).status).toBe(404);
    const placeholder = await call('POST', `/api/deposits/${deposit.id}/entries`, cast.captain, {
      raceId: TEN_K,
      placeholder: true,
    });
    expect(placeholder.body.entries[1]).toMatchObject({ state: 'placeholder', firstName: '' });
    const half = await call('POST', `/api/deposits/${deposit.id}/entries`, cast.captain, {
      raceId: MARATHON,
      firstName: 'Carl',
      lastName: 'Maes',
    });
    expect(half.body.entries[2]).toMatchObject({ state: 'submitted', missing: ['gender', 'birthDate'] });
    // Incomplete named entries block the submission.
    expect((await call('POST', `/api/deposits/${deposit.id}/submit`, cast.captain)).body.code).toBe(
      'ENTRIES_INCOMPLETE',
    );
    const fixed = await call(
      'PATCH',
      `/api/deposits/${deposit.id}/entries/${half.body.entries[2]!.id}`,
      cast.captain,
      { gender: 'M', birthDate: '1975-01-20' },
    );
    expect(fixed.body.entries[2]).toMatchObject({ state: 'valid', category: 'M45' });
    // A member may not change someone else's entry.
    expect(
      (
        await call('PATCH', `/api/deposits/${deposit.id}/entries/${half.body.entries[2]!.id}`, cast.bob, {
          firstName: 'X',
        })
      ).status,
    ).toBe(403);
    const csv = 'prénom;nom;sexe;naissance;course\nDirk;Janssens;H;12/03/1980;city-10k\n';
    const imported = await call('POST', `/api/deposits/${deposit.id}/entries/import`, cast.captain, { csv });
    expect(imported.body.entries).toHaveLength(4);
    expect(imported.body.entries[3]).toMatchObject({
      firstName: 'Dirk',
      gender: 'M',
      birthDate: '1980-03-12',
      state: 'valid',
    });
    const badCsv = await call('POST', `/api/deposits/${deposit.id}/entries/import`, cast.captain, {
      csv: 'firstName,lastName,race\nA,B,nowhere\n',
    });
    expect(badCsv.body.code).toBe('CSV_ROWS_INVALID');
  });

  it('submits: prices frozen into one order with a valid structured communication, mailed to the captain', async () => {
    // Issue 41: the payer reads the order in their account's language.
    await app.database.query(`UPDATE users SET lng = 'fr' WHERE lower(email) = lower($1)`, [
      cast.captain.email,
    ]);
    const submitted = await call('POST', `/api/deposits/${deposit.id}/submit`, cast.captain);
    expect(submitted.status).toBe(200);
    deposit = submitted.body;
    expect(deposit.state).toBe('awaiting_payment');
    expect(deposit.orders).toHaveLength(1);
    const order = deposit.orders[0]!;
    expect(order.amountCents).toBe(2500 * 3 + 4500);
    expect(isValidStructured(order.structured.replace(/\D/g, ''))).toBe(true);
    // Issue 29: not the order's number (sequential across the instance, it told volumes).
    expect(order.structured).not.toBe(formatStructured(structuredFromNumber(Number(order.id))));
    const [{ n } = { n: 0 }] = await app.database.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM orders WHERE structured = $1',
      [order.structured.replace(/\D/g, '')],
    );
    expect(n).toBe(1);
    expect(deposit.editable).toBe(false);
    const mails = await app.outbox.list(20);
    const orderMail = mails.find((m) => m.to === cast.captain.email && m.text.includes(order.structured));
    expect(orderMail?.subject).toContain('à payer');
    expect(orderMail?.text).toContain('avec la communication structurée');
    expect(orderMail?.text).not.toContain('Bank transfer');
    // Prices stay frozen when the organiser changes the fees later.
    await app.inject({
      method: 'PUT',
      url: `/api/payments/staff/events/${EVENT}/settings`,
      headers: cast.staff,
      payload: { ...(await import('./test-helpers.ts')).testSettings(), fees: { [TEN_K]: 9900 } },
    });
    expect((await call('GET', `/api/payments/orders/${order.id}`, cast.captain)).body.amountCents).toBe(
      12000,
    );
    // No more entries nor a second submission.
    expect(
      (
        await call('POST', `/api/deposits/${deposit.id}/entries`, cast.captain, {
          raceId: TEN_K,
          placeholder: true,
        })
      ).body.code,
    ).toBe('DEPOSIT_STATE');
    expect((await call('POST', `/api/deposits/${deposit.id}/submit`, cast.captain)).body.code).toBe(
      'DEPOSIT_STATE',
    );
    expect((await call('GET', `/api/payments/orders/${order.id}`, cast.stranger)).status).toBe(404);
  });

  it('a camt.053 statement pays the order; the unmatched line waits in the queue; entries become participants', async () => {
    const order = deposit.orders[0]!;
    const xml = sampleCamt053([
      { amountCents: order.amountCents, structured: order.structured.replace(/\D/g, ''), name: 'ACME SA' },
      { amountCents: 4200, freeText: 'inscription Jean', name: 'J JEAN' },
    ]);
    const url = `/api/payments/staff/events/${EVENT}/statements?name=stmt.xml`;
    const denied = await app.inject({
      method: 'POST',
      url,
      headers: { ...cast.otherOrg, 'content-type': 'application/xml' },
      payload: xml,
    });
    expect(denied.statusCode).toBe(403);
    const res = await app.inject({
      method: 'POST',
      url,
      headers: { ...cast.staff, 'content-type': 'application/xml' },
      payload: xml,
    });
    expect(res.statusCode).toBe(201);
    expect(JSON.parse(res.body) as StatementImportResult).toMatchObject({
      format: 'camt053',
      movements: 2,
      matched: 1,
      manual: 1,
    });
    const again = await app.inject({
      method: 'POST',
      url,
      headers: { ...cast.staff, 'content-type': 'application/xml' },
      payload: xml,
    });
    expect(JSON.parse(again.body)).toMatchObject({ matched: 0, manual: 0, duplicates: 2 });
    const after = (await call('GET', `/api/deposits/${deposit.id}`, cast.captain)).body;
    expect(after.state).toBe('paid'); // the placeholder is still to fill
    expect(after.orders[0]).toMatchObject({ state: 'paid', paidCents: order.amountCents });
    const confirmed = after.entries.filter((e) => e.state === 'confirmed');
    expect(confirmed).toHaveLength(3);
    expect(confirmed.every((e) => e.bib)).toBe(true);
    const bib = confirmed.find((e) => e.firstName === 'Ann')!.bib;
    const rows = await app.database.query<{ club: string; category: string | null }>(
      'SELECT club FROM participants WHERE race_id = $1 AND bib = $2',
      [TEN_K, bib],
    );
    expect(rows[0]!.club).toBe('Acme SA');
    const queue = (await call('GET', `/api/payments/staff/events/${EVENT}/queue`, cast.staff))
      .body as unknown as { id: string; reason: string; amountCents: number }[];
    expect(queue).toHaveLength(1);
    expect(queue[0]).toMatchObject({ reason: 'NO_REFERENCE', amountCents: 4200 });
    const audit = (await call('GET', `/api/payments/staff/events/${EVENT}/audit`, cast.staff))
      .body as unknown as { action: string }[];
    expect(audit.map((a) => a.action)).toEqual(expect.arrayContaining(['auto_match', 'statement_import']));
    expect(
      (
        await call('POST', `/api/payments/staff/events/${EVENT}/queue/${queue[0]!.id}/ignore`, cast.staff, {
          note: 'not ours',
        })
      ).body.state,
    ).toBe('ignored');
  });

  it('fills the placeholder after payment (confirmed at once); substitutions wait for the organiser', async () => {
    const placeholder = deposit.entries.find((e) => e.state === 'placeholder')!;
    const incomplete = await call(
      'PATCH',
      `/api/deposits/${deposit.id}/entries/${placeholder.id}`,
      cast.captain,
      { firstName: 'Bob' },
    );
    expect(incomplete.body.code).toBe('ENTRY_INCOMPLETE');
    const filled = await call(
      'PATCH',
      `/api/deposits/${deposit.id}/entries/${placeholder.id}`,
      cast.captain,
      {
        firstName: 'Bob',
        lastName: 'Claes',
        gender: 'M',
        birthDate: '1988-08-08',
      },
    );
    expect(filled.body.entries.find((e) => e.id === placeholder.id)).toMatchObject({ state: 'confirmed' });
    expect(filled.body.state).toBe('confirmed');
    const ann = filled.body.entries.find((e) => e.firstName === 'Ann')!;
    const asked = await call('PATCH', `/api/deposits/${deposit.id}/entries/${ann.id}`, cast.ann, {
      firstName: 'Anna',
      lastName: 'Wouters',
      birthDate: '1991-05-05',
    });
    expect(asked.body.entries.find((e) => e.id === ann.id)).toMatchObject({
      firstName: 'Ann',
      substitution: { firstName: 'Anna' },
    });
    expect(
      (
        await call('POST', `/api/deposits/${deposit.id}/entries/${ann.id}/substitution`, cast.captain, {
          approve: true,
        })
      ).status,
    ).toBe(403);
    const approved = await call(
      'POST',
      `/api/deposits/${deposit.id}/entries/${ann.id}/substitution`,
      cast.staff,
      { approve: true },
    );
    expect(approved.body.entries.find((e) => e.id === ann.id)).toMatchObject({
      firstName: 'Anna',
      substitution: null,
      bib: ann.bib,
    });
    const [p] = await app.database.query<{ first_name: string }>(
      'SELECT first_name FROM participants WHERE race_id = $1 AND bib = $2',
      [TEN_K, ann.bib],
    );
    expect(p!.first_name).toBe('Anna');
  });

  it('messages reach the chosen members through the outbox and stay as a thread', async () => {
    const sent = await call('POST', `/api/deposits/${deposit.id}/messages`, cast.captain, {
      audience: 'all',
      subject: 'Kit',
      body: 'T-shirts on Friday',
    });
    expect(sent.status).toBe(201);
    expect(sent.body.recipients).toBeGreaterThanOrEqual(2);
    expect(
      (
        await call('POST', `/api/deposits/${deposit.id}/messages`, cast.ann, {
          audience: 'all',
          subject: 'x',
          body: 'y',
        })
      ).status,
    ).toBe(403);
    const thread = (await call('GET', `/api/deposits/${deposit.id}/messages`, cast.bob)).body as unknown as {
      subject: string;
    }[];
    expect(thread.map((m) => m.subject)).toEqual(['Kit']);
    const mails = await app.outbox.list(50);
    expect(mails.filter((m) => m.subject.endsWith('Kit')).map((m) => m.to)).toEqual(
      expect.arrayContaining([cast.ann.email, cast.bob.email]),
    );
    const toOrganiser = await call('POST', `/api/deposits/${deposit.id}/messages`, cast.captain, {
      audience: 'organiser',
      subject: 'Parking',
      body: '?',
    });
    expect(toOrganiser.body.recipients).toBeGreaterThanOrEqual(1);
  });

  it('receipts, payer listing, exports, refunds by policy and the bank export', async () => {
    const order = deposit.orders[0]!;
    const pdf = await app.inject({
      method: 'GET',
      url: `/api/payments/orders/${order.id}/receipt.pdf`,
      headers: auth(cast.captain),
    });
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const mine = (await call('GET', '/api/payments/mine', cast.captain)).body as unknown as {
      orders: { id: string }[];
    };
    expect(mine.orders.map((o) => o.id)).toContain(order.id);
    const csv = await app.inject({
      method: 'GET',
      url: `/api/payments/staff/events/${EVENT}/export.csv`,
      headers: cast.staff,
    });
    expect(csv.body.split('\r\n')[1]).toContain(order.structured);
    // Amounts with two decimals (issue 29: `36.3` was written), a decimal comma for French Excel.
    const amounts = (body: string) =>
      body
        .split('\r\n')
        .slice(1, -1)
        .map((line) =>
          line
            .split(';')
            .slice(10, 13)
            .map((cell) => cell.replace(/^"(.*)"$/, '$1')),
        );
    for (const cells of amounts(csv.body)) for (const cell of cells) expect(cell).toMatch(/^\d+\.\d{2}$/);
    const fr = await app.inject({
      method: 'GET',
      url: `/api/payments/staff/events/${EVENT}/export.csv?lng=fr`,
      headers: cast.staff,
    });
    expect(amounts(fr.body)).toEqual(amounts(csv.body).map((cells) => cells.map((c) => c.replace('.', ','))));
    expect(amounts(fr.body)[0]![0]).toMatch(/^\d+,\d{2}$/);
    const xlsx = await app.inject({
      method: 'GET',
      url: `/api/payments/staff/events/${EVENT}/export.xlsx`,
      headers: cast.staff,
    });
    expect(xlsx.rawPayload.subarray(0, 2).toString()).toBe('PK');
    // Issue 41: typed cells — amounts numbers, the order's time a date, text never prefixed.
    const { default: ExcelJS } = await import('exceljs');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx.rawPayload as never);
    const sheet = book.worksheets[0]!;
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    const first = sheet.getRow(2);
    expect(typeof first.getCell(header.indexOf('amount') + 1).value).toBe('number');
    expect(first.getCell(header.indexOf('created') + 1).value).toBeInstanceOf(Date);
    const texts = (first.values as unknown[]).filter((v) => typeof v === 'string') as string[];
    expect(texts.filter((v) => v.startsWith("'"))).toEqual([]);
    const refund = await call('POST', `/api/payments/staff/events/${EVENT}/refunds`, cast.staff, {
      orderIds: [order.id],
      kind: 'policy',
      reason: 'injury',
    });
    expect(refund.status).toBe(201);
    expect((refund.body as unknown as { amountCents: number }[])[0]!.amountCents).toBe(6000);
    const tooMuch = await call('POST', `/api/payments/staff/events/${EVENT}/refunds`, cast.staff, {
      orderIds: [order.id],
      kind: 'partial',
      amountCents: 7000,
    });
    expect(tooMuch.body.code).toBe('REFUND_INVALID');
    const exported = await app.inject({
      method: 'GET',
      url: `/api/payments/staff/events/${EVENT}/refunds.csv`,
      headers: cast.staff,
    });
    expect(exported.body).toContain('60.00');
    for (const line of exported.body.trim().split('\r\n').slice(1))
      expect(line.split(';')[4]).toMatch(/^\d+\.\d{2}$/);
    expect(exported.body).toContain('BE71096123456769'); // back to the account that paid
    const twice = await app.inject({
      method: 'GET',
      url: `/api/payments/staff/events/${EVENT}/refunds.csv`,
      headers: cast.staff,
    });
    expect(twice.body.trim().split('\r\n')).toHaveLength(1);
    // The 10 km is cancelled: every paid order with a 10 km entry is refunded in full (the rest).
    const bulk = await call('POST', `/api/payments/staff/events/${EVENT}/refunds`, cast.staff, {
      raceId: TEN_K,
      kind: 'full',
      reason: 'race cancelled',
    });
    expect(bulk.status).toBe(201);
    expect((bulk.body as unknown as { amountCents: number }[]).map((r) => r.amountCents)).toEqual([6000]);
    expect((await call('GET', `/api/payments/orders/${order.id}`, cast.captain)).body).toMatchObject({
      state: 'refunded',
      refundedCents: 12000,
    });
  });

  it('expires an unpaid order: places released, the deposit expired, then collecting again', async () => {
    const d = (
      await call('POST', '/api/deposits', cast.bob, {
        eventId: EVENT,
        organisationName: 'Friends',
        type: 'friends',
      })
    ).body;
    await call('POST', `/api/deposits/${d.id}/entries`, cast.bob, { raceId: TEN_K, placeholder: true });
    const submitted = (await call('POST', `/api/deposits/${d.id}/submit`, cast.bob)).body;
    expect(submitted.state).toBe('awaiting_payment');
    const offerBefore = (await call('GET', `/api/deposits/events/${EVENT}/offer`)).body as unknown as {
      races: { id: string; placesLeft: number }[];
    };
    await app.database.query(
      `UPDATE orders SET expires_at = now() - interval '1 minute' WHERE deposit_id = $1::bigint`,
      [d.id],
    );
    expect((await call('POST', `/api/payments/staff/events/${EVENT}/expire`, cast.staff)).body.expired).toBe(
      1,
    );
    const expired = (await call('GET', `/api/deposits/${d.id}`, cast.bob)).body;
    expect(expired.state).toBe('expired');
    expect(expired.orders[0]!.state).toBe('expired');
    const offerAfter = (await call('GET', `/api/deposits/events/${EVENT}/offer`)).body as unknown as {
      races: { id: string; placesLeft: number }[];
    };
    const left = (o: typeof offerBefore) => o.races.find((r) => r.id === TEN_K)!.placesLeft;
    expect(left(offerAfter)).toBe(left(offerBefore) + 1);
    // A late transfer for an expired order waits for a person.
    const coda = sampleCoda([
      { amountCents: 2500, structured: expired.orders[0]!.structured.replace(/\D/g, '') },
    ]);
    const res = await app.inject({
      method: 'POST',
      url: `/api/payments/staff/events/${EVENT}/statements?format=coda`,
      headers: { ...cast.staff, 'content-type': 'text/plain' },
      payload: coda,
    });
    expect(JSON.parse(res.body)).toMatchObject({ format: 'coda', matched: 0, manual: 1 });
    expect((await call('POST', `/api/deposits/${d.id}/reopen`, cast.bob)).body.state).toBe('collecting');
    expect((await call('POST', `/api/deposits/${d.id}/close`, cast.bob)).status).toBe(403);
    expect((await call('POST', `/api/deposits/${d.id}/cancel`, cast.bob)).body.state).toBe('cancelled');
    expect((await call('POST', `/api/deposits/${d.id}/reopen`, cast.bob)).body.code).toBe('DEPOSIT_STATE');
  });

  it('refuses malformed statements with a clear problem and stores nothing', async () => {
    const res = await app.inject({
      method: 'POST',
      url: `/api/payments/staff/events/${EVENT}/statements?format=coda`,
      headers: { ...cast.staff, 'content-type': 'text/plain' },
      payload: 'not a coda file',
    });
    expect(res.statusCode).toBe(400);
    expect(JSON.parse(res.body).code).toBe('STATEMENT_INVALID');
  });
});
