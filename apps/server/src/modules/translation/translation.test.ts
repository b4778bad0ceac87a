import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../test/helpers.ts';

describe('translation labels (spec §7)', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildTestApp();
  });
  afterAll(async () => app.close());

  it('serves acn/inscriptions in French and English as a key → text map', async () => {
    const fr = await app.inject({ url: '/api/translation/i18n/acn/inscriptions/fr' });
    expect(fr.statusCode).toBe(200);
    expect(fr.headers['content-type']).toContain('application/json');
    expect(fr.json().firstName).toBe('Prénom');
    const en = await app.inject({ url: '/api/translation/i18n/cr/inscriptions/en' });
    expect(en.json().firstName).toBe('First name');
    expect(Object.keys(en.json()).sort()).toEqual(Object.keys(fr.json()).sort());
  });

  it('serves the web’s words: references resolved, nested keys flattened (issue 30)', async () => {
    const fr = (await app.inject({ url: '/api/translation/i18n/acn/inscriptions/fr' })).json();
    expect(fr['gender.F']).toBe('Femme');
    expect(fr.birthDate).toBe('Date de naissance');
    expect(fr.nationality).toBe('Nationalité (3 lettres, p. ex. BEL)');
    expect(Object.values(fr).join(' ')).not.toContain('$t(');
    const participants = await app.inject({ url: '/api/translation/i18n/acn/participants/en' });
    expect(participants.statusCode).toBe(200);
    expect(participants.json()['fields.birthDate']).toBe('Birth date');
    expect(participants.json()['issues.DUPLICATE_BIB_line']).toBe('Bib {{value}} is also on line {{line}}');
  });

  it('answers 304 to a matching If-None-Match', async () => {
    const first = await app.inject({ url: '/api/translation/i18n/acn/inscriptions/en' });
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^".+"$/);
    const again = await app.inject({
      url: '/api/translation/i18n/acn/inscriptions/en',
      headers: { 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);
  });

  it('answers problems for unknown namespaces, variants and languages, never a 500', async () => {
    const unknown = await app.inject({ url: '/api/translation/i18n/acn/nothing/en' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers['content-type']).toContain('application/problem+json');
    expect(unknown.json().code).toBe('TRANSLATION_NOT_FOUND');
    for (const url of [
      '/api/translation/i18n/xx/inscriptions/en',
      '/api/translation/i18n/acn/inscriptions/de',
    ]) {
      const bad = await app.inject({ url });
      expect(bad.statusCode).toBe(404);
      expect(bad.json().code).toBe('TRANSLATION_NOT_FOUND');
    }
  });
});
