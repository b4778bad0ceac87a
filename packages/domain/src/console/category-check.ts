import type { CategoryDef, Gender } from '../results/types.ts';

/** The oldest age the check considers. */
export const MAX_AGE = 120;

/** A problem in a race's categories. */
export type CategoryIssue =
  | { kind: 'invalid'; categoryId: string }
  | { kind: 'duplicateId'; categoryId: string }
  /** Ages of one gender that several categories match: the first in order wins. */
  | { kind: 'overlap'; gender: Gender; fromAge: number; toAge: number; categoryIds: string[] }
  /** Ages of one gender that no category matches, between the youngest and the oldest covered. */
  | { kind: 'gap'; gender: Gender; fromAge: number; toAge: number };

const GENDERS: readonly Gender[] = ['F', 'M', 'X'];

function covers(c: CategoryDef, gender: Gender, age: number): boolean {
  if (c.gender !== undefined && c.gender !== gender) return false;
  return (c.minAge === undefined || age >= c.minAge) && (c.maxAge === undefined || age <= c.maxAge);
}

/**
 * Overlaps and gaps of age-group categories, per gender (issue 14: "overlaps and gaps reported").
 * Only genders some category names are checked for gaps (a race without X categories has no X
 * gap); a gap below a gender's youngest category or above its oldest is no gap (children, the
 * oldest open group), except that a closed oldest group leaves the ages above it uncovered.
 * Ranges of equal issues are merged (ages 40–44 rather than five lines).
 */
export function checkCategories(categories: readonly CategoryDef[]): CategoryIssue[] {
  const issues: CategoryIssue[] = [];
  const seen = new Set<string>();
  for (const c of categories) {
    if (seen.has(c.id)) issues.push({ kind: 'duplicateId', categoryId: c.id });
    seen.add(c.id);
    if (c.minAge !== undefined && c.maxAge !== undefined && c.minAge > c.maxAge)
      issues.push({ kind: 'invalid', categoryId: c.id });
  }
  const valid = categories.filter(
    (c) => !(c.minAge !== undefined && c.maxAge !== undefined && c.minAge > c.maxAge),
  );
  const named = new Set(valid.map((c) => c.gender).filter((g): g is Gender => g !== undefined));
  const genders =
    valid.some((c) => c.gender === undefined) && named.size === 0
      ? (['F', 'M'] as Gender[])
      : GENDERS.filter((g) => named.has(g));
  for (const gender of genders) {
    const matching: string[][] = [];
    for (let age = 0; age <= MAX_AGE; age++) {
      matching.push(valid.filter((c) => covers(c, gender, age)).map((c) => c.id));
    }
    const covered = matching.map((ids) => ids.length > 0);
    const first = covered.indexOf(true);
    const last = covered.lastIndexOf(true);
    if (first < 0) continue;
    const topOpen = last === MAX_AGE;
    let age = first;
    while (age <= MAX_AGE) {
      const ids = matching[age]!;
      const key = ids.join('|');
      let end = age;
      while (end + 1 <= MAX_AGE && matching[end + 1]!.join('|') === key) end++;
      if (ids.length > 1)
        issues.push({ kind: 'overlap', gender, fromAge: age, toAge: end, categoryIds: ids });
      if (ids.length === 0 && (age <= last || !topOpen) && age < MAX_AGE)
        issues.push({ kind: 'gap', gender, fromAge: age, toAge: end });
      age = end + 1;
    }
  }
  return issues;
}
