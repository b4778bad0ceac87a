import { afterVerifySchema } from '@tempora/contracts';
import { describe, expect, it } from 'vitest';
import { entriesRoute } from './intended-route.ts';

/** An account made on the way (issue 38) comes back to the entry page — and the race chosen. */
describe('the entry page an account made on the way returns to', () => {
  it('is an event’s entry page, a team’s, or the form of a race', () => {
    for (const route of ['/entries/course-38', '/entries/course-38?race=course-38-10k'])
      expect(entriesRoute(route)).toBe(route);
    expect(entriesRoute(`/entries/course-38/team/T${'a'.repeat(22)}`)).not.toBeNull();
    for (const route of ['/entries/course-38?race=x&next=//evil', '/console', '//evil.example', null])
      expect(entriesRoute(route)).toBeNull();
  });
  it('is what the verification link may carry, and nothing else', () => {
    expect(afterVerifySchema.safeParse('/entries/course-38?race=course-38-10k').success).toBe(true);
    expect(afterVerifySchema.safeParse('/entries/course-38?race=a/b').success).toBe(false);
    expect(afterVerifySchema.safeParse('https://evil.example/').success).toBe(false);
  });
});
