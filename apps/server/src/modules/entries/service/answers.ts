import type { RegistrationSettings } from '@tempora/contracts';

type Question = RegistrationSettings['questions'][number];

/**
 * A runner's answers to the organiser's questions (issue 38): each required question answered,
 * each answer of its kind (one of the options, several of them, yes/no, a number, a date).
 * Answers to unknown questions are dropped. Returns the answers kept and the errors per question.
 */
export function checkAnswers(
  questions: readonly Question[],
  answers: Record<string, unknown>,
): { kept: Record<string, unknown>; errors: { field: string; code: string }[] } {
  const kept: Record<string, unknown> = {};
  const errors: { field: string; code: string }[] = [];
  for (const q of questions) {
    const value = answers[q.key];
    const empty = value == null || value === '' || (Array.isArray(value) && value.length === 0);
    if (empty) {
      if (q.required) errors.push({ field: `answers.${q.key}`, code: 'REQUIRED' });
      continue;
    }
    const ok =
      (q.kind === 'text' && typeof value === 'string') ||
      (q.kind === 'one' && typeof value === 'string' && q.options.includes(value)) ||
      (q.kind === 'several' && Array.isArray(value) && value.every((v) => q.options.includes(v))) ||
      (q.kind === 'yesno' && typeof value === 'boolean') ||
      (q.kind === 'number' && typeof value === 'number' && Number.isFinite(value)) ||
      (q.kind === 'date' && typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value));
    if (ok) kept[q.key] = value;
    else errors.push({ field: `answers.${q.key}`, code: 'ANSWER_INVALID' });
  }
  return { kept, errors };
}
