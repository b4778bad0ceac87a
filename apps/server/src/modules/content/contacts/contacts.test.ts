import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../../test/helpers.ts';
import { organisers } from '../test-helpers.ts';

const base = '/api/events/demo-city-run';
const message = {
  name: 'Ann',
  email: 'ann@example.test',
  subject: 'Parking',
  message: 'Where can I park my car?',
};

describe('contacts API', () => {
  let app: FastifyInstance;
  let who: Awaited<ReturnType<typeof organisers>>;
  beforeAll(async () => {
    app = await buildTestApp();
    who = await organisers(app);
  });
  afterAll(() => app.close());

  it('lists the seeded contacts', async () => {
    const contacts = (await app.inject(`${base}/contacts`)).json();
    expect(contacts).toHaveLength(3);
    expect(contacts[0]).toMatchObject({ role: 'Race director', email: 'race@demo-city-run.test' });
  });

  it('stores a message and e-mails it to the organiser through the outbox, escaped', async () => {
    const res = await app.inject({
      method: 'POST',
      url: `${base}/contact`,
      payload: { ...message, message: 'Where can I park? <script>x</script>' },
      remoteAddress: '10.0.0.1',
    });
    expect(res.statusCode).toBe(200);
    const [mail] = await app.outbox.list(1);
    expect(mail).toMatchObject({ to: 'race@demo-city-run.test', subject: '[Demo City Run] Parking' });
    expect(mail?.html).not.toContain('<script>');
    const [row] = (await app.database.query('SELECT count(*)::int AS count FROM contact_messages')) as {
      count: number;
    }[];
    const count = row?.count;
    expect(count).toBe(1);
  });

  it('refuses bad input, swallows the honeypot and rate-limits per IP', async () => {
    const send = (payload: object, ip: string) =>
      app.inject({ method: 'POST', url: `${base}/contact`, payload, remoteAddress: ip });
    const bad = await send({ ...message, email: 'nope' }, '10.0.0.2');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].field).toBe('email');
    expect((await send({ ...message, message: 'short' }, '10.0.0.2')).statusCode).toBe(400);
    expect((await send({ ...message, website: 'http://spam.test' }, '10.0.0.3')).statusCode).toBe(200);
    const [row] = (await app.database.query('SELECT count(*)::int AS count FROM contact_messages')) as {
      count: number;
    }[];
    const count = row?.count;
    expect(count).toBe(1);
    for (let i = 0; i < 5; i++) await send(message, '10.0.0.9');
    const limited = await send(message, '10.0.0.9');
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
  });

  it('lets the organiser manage contacts, not another organisation', async () => {
    const contact = { role: 'Medical', name: 'Dr. Who', phone: '+32 470 00 00 00' };
    const forged = await app.inject({
      method: 'POST',
      url: `${base}/contacts`,
      headers: who.b,
      payload: contact,
    });
    expect(forged.statusCode).toBe(403);
    const created = await app.inject({
      method: 'POST',
      url: `${base}/contacts`,
      headers: who.a,
      payload: contact,
    });
    expect(created.statusCode).toBe(201);
    const { id } = created.json();
    const url = `${base}/contacts/${id}`;
    expect(
      (await app.inject({ method: 'PATCH', url, headers: who.b, payload: { name: 'X' } })).statusCode,
    ).toBe(403);
    expect(
      (await app.inject({ method: 'PATCH', url, headers: who.a, payload: { email: 'bad' } })).statusCode,
    ).toBe(400);
    expect((await app.inject({ method: 'DELETE', url, headers: who.b })).statusCode).toBe(403);
    expect((await app.inject({ method: 'DELETE', url, headers: who.a })).statusCode).toBe(204);
  });

  it('writes to the recipient in the language of their account (issue 41)', async () => {
    await app.database.query(
      `INSERT INTO users (email, email_verified, lng) VALUES ('race@demo-city-run.test', true, 'fr')`,
    );
    const res = await app.inject({
      method: 'POST',
      url: `${base}/contact`,
      payload: { ...message, email: 'bea@example.test' },
      remoteAddress: '10.0.0.5',
    });
    expect(res.statusCode).toBe(200);
    const [mail] = await app.outbox.list(1);
    expect(mail?.to).toBe('race@demo-city-run.test');
    expect(mail?.text).toContain('a écrit via le formulaire de contact de Demo City Run');
  });
});
