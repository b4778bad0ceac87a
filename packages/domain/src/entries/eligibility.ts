import { ageOn } from './pricing.ts';

/**
 * Who may enter a race (issue 38): the age limits on race day, the fields the organiser
 * requires, a guardian for minors, the waiver accepted. Each problem is one error on its field,
 * with a stable code, so the form shows it where it belongs.
 */

export const ENTRY_FIELDS = [
  'birthDate',
  'gender',
  'nationality',
  'club',
  'licence',
  'emergencyContact',
  'phone',
] as const;
export type EntryField = (typeof ENTRY_FIELDS)[number];

export interface EligibilityRules {
  readonly raceDay: string;
  readonly minAge?: number | null;
  readonly maxAge?: number | null;
  readonly required?: readonly EntryField[];
  /** Whether a minor (under 18 on race day) gives a guardian's name and e-mail. */
  readonly guardianForMinors?: boolean;
  /** The current waiver version, when there is one to accept. */
  readonly waiverVersion?: number | null;
}

export interface RunnerInput {
  readonly firstName: string;
  readonly lastName: string;
  readonly email: string;
  readonly birthDate?: string | null;
  readonly gender?: string | null;
  readonly nationality?: string | null;
  readonly club?: string | null;
  readonly licence?: string | null;
  readonly emergencyContact?: string | null;
  readonly phone?: string | null;
  readonly guardianName?: string | null;
  readonly guardianEmail?: string | null;
  readonly waiverVersion?: number | null;
}

export interface FieldError {
  readonly field: string;
  readonly code: string;
}

/** The errors of one runner against a race's rules (empty: eligible). */
export function eligibilityErrors(rules: EligibilityRules, runner: RunnerInput): FieldError[] {
  const errors: FieldError[] = [];
  if (!runner.firstName.trim()) errors.push({ field: 'firstName', code: 'REQUIRED' });
  if (!runner.lastName.trim()) errors.push({ field: 'lastName', code: 'REQUIRED' });
  if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(runner.email))
    errors.push({ field: 'email', code: 'EMAIL_INVALID' });
  for (const field of rules.required ?? []) {
    const value = runner[field];
    if (value == null || String(value).trim() === '') errors.push({ field, code: 'REQUIRED' });
  }
  const needsAge = rules.minAge != null || rules.maxAge != null || rules.guardianForMinors;
  if (needsAge && !runner.birthDate && !errors.some((e) => e.field === 'birthDate')) {
    errors.push({ field: 'birthDate', code: 'REQUIRED' });
  }
  if (runner.birthDate) {
    const age = ageOn(runner.birthDate, rules.raceDay);
    if (rules.minAge != null && age < rules.minAge) errors.push({ field: 'birthDate', code: 'AGE_TOO_LOW' });
    if (rules.maxAge != null && age > rules.maxAge) errors.push({ field: 'birthDate', code: 'AGE_TOO_HIGH' });
    if (rules.guardianForMinors && age < 18) {
      if (!runner.guardianName?.trim()) errors.push({ field: 'guardianName', code: 'REQUIRED' });
      if (!runner.guardianEmail || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(runner.guardianEmail)) {
        errors.push({ field: 'guardianEmail', code: 'EMAIL_INVALID' });
      }
    }
  }
  if (rules.waiverVersion != null && runner.waiverVersion !== rules.waiverVersion) {
    errors.push({ field: 'waiver', code: 'WAIVER_NOT_ACCEPTED' });
  }
  return errors;
}
