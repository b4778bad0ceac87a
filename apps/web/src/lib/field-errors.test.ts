import { depositSettingsSchema, fieldIssueOf } from '@tempora/contracts';
import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { ApiError, fieldError, problemFieldErrors } from './api-client.ts';
import { FIELD_ERRORS_NS, fieldErrorsOf } from './field-errors.ts';
import { initI18n } from './i18n.ts';

/** The `errors` of the 400 the server answers for `input` (validate.ts parseInput does exactly this). */
const problemErrors = (input: unknown) =>
  depositSettingsSchema.safeParse(input).error!.issues.map((issue) => fieldIssueOf(issue));

const settings = {
  open: true,
  entryDeadline: null,
  currency: 'EUR',
  fees: {},
  capacities: {},
  orderExpiryDays: 0,
  refundPolicy: { kind: 'tiers', tiers: [{ until: '1/5/2026', percent: 100 }] },
  beneficiary: '',
  iban: 'BE12 3',
};

describe('one error map: field errors translated on their fields (issue 29)', () => {
  beforeAll(() => {
    initI18n('fr');
  });

  it('turns the server’s codes into French messages, never zod’s English text', async () => {
    await i18next.changeLanguage('fr');
    const byField = fieldErrorsOf(problemErrors(settings));
    expect(byField).toEqual({
      orderExpiryDays: ['Au moins 1'],
      'refundPolicy.tiers.0.until': ['Date non valable'],
      iban: ['Format non reconnu'],
    });
    const error = new ApiError(400, 'VALIDATION_FAILED', 'Invalid body', byField);
    // The refund policy field shows the error of its tier.
    expect(fieldError(error, 'refundPolicy')).toBe('Date non valable');
    expect(fieldError(error, 'iban')).toBe('Format non reconnu');
    expect(fieldError(error, 'beneficiary')).toBeUndefined();
  });

  it('says the same in English, and keeps the server’s text for a code it does not know', async () => {
    await i18next.changeLanguage('en');
    expect(fieldErrorsOf(problemErrors(settings))['refundPolicy.tiers.0.until']).toEqual([
      'Not a valid date',
    ]);
    expect(fieldErrorsOf([{ field: 'x', code: 'SOMETHING_NEW', message: 'as sent' }])).toEqual({
      x: ['as sent'],
    });
  });

  it('loads its messages only for a problem with field errors: out of the public namespaces (issue 19)', async () => {
    // Not in the translations every public page loads before its first render.
    const publicFr = (await import('./locales-fr.ts')).default;
    expect(Object.keys(publicFr).some((file) => file.includes(FIELD_ERRORS_NS))).toBe(false);
    expect(JSON.stringify(publicFr)).not.toContain('Date non valable');
    // Asked for by the API client when a problem carries field errors (the namespace dropped here
    // comes back through i18next's backend, as in the browser).
    await i18next.changeLanguage('fr');
    i18next.removeResourceBundle('fr', FIELD_ERRORS_NS);
    expect(i18next.hasResourceBundle('fr', FIELD_ERRORS_NS)).toBe(false);
    expect(await problemFieldErrors(problemErrors(settings))).toEqual({
      orderExpiryDays: ['Au moins 1'],
      'refundPolicy.tiers.0.until': ['Date non valable'],
      iban: ['Format non reconnu'],
    });
    expect(i18next.hasResourceBundle('fr', FIELD_ERRORS_NS)).toBe(true);
  });
});
