import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fieldIssueOf } from './field-errors.ts';
import { depositSettingsSchema } from './payments.ts';

const issues = (schema: z.ZodType, input: unknown) =>
  schema.safeParse(input).error!.issues.map((i) => {
    const { message: _m, ...rest } = fieldIssueOf(i);
    return rest;
  });

describe('field error codes (issue 29: one error map, client and server)', () => {
  it('codes the issues of the forms: required, lengths, bounds, dates, formats, choices', () => {
    const schema = z
      .object({
        name: z.string().min(1).max(5),
        code: z.string().min(3),
        percent: z.number().min(0).max(100),
        day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
        email: z.email(),
        kind: z.enum(['a', 'b']),
        missing: z.string(),
      })
      .strict();
    expect(
      issues(schema, {
        name: '',
        code: 'ab',
        percent: 120,
        day: '1/5/2026',
        email: 'x',
        kind: 'c',
        extra: 1,
      }),
    ).toEqual([
      { field: 'name', code: 'required', params: { min: 1 } },
      { field: 'code', code: 'tooShort', params: { min: 3 } },
      { field: 'percent', code: 'tooBig', params: { max: 100 } },
      { field: 'day', code: 'invalidDate' },
      { field: 'email', code: 'invalidEmail' },
      { field: 'kind', code: 'invalidChoice' },
      { field: 'missing', code: 'required' },
      { field: 'body', code: 'unknownField' },
    ]);
  });

  it('names the refund tier and the IBAN of the deposit settings on their fields', () => {
    const settings = {
      open: true,
      entryDeadline: null,
      currency: 'EUR',
      fees: {},
      capacities: {},
      orderExpiryDays: 14,
      refundPolicy: { kind: 'tiers', tiers: [{ until: '2026-5-1', percent: 100 }] },
      beneficiary: '',
      iban: 'BE12',
    };
    expect(issues(depositSettingsSchema, settings)).toEqual([
      { field: 'refundPolicy.tiers.0.until', code: 'invalidDate' },
      { field: 'iban', code: 'invalidFormat' },
    ]);
  });
});
