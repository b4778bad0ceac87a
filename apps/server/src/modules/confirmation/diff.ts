import type { RowDecision, RowField, VersionDiff } from '@tempora/contracts';
import { type Fields, fold, personKeys } from './validate.ts';

/** A row of the version being replaced. */
export interface PreviousRow {
  id: string;
  position: number;
  fields: Fields;
  decision: RowDecision;
  reason: string | null;
  participantId: string | null;
  participantRaceId: string | null;
  participantBib: string | null;
}

/** A row of the new version, with what it keeps from its previous self. */
export interface NextRow {
  position: number;
  raw: string[];
  fields: Fields;
  change: 'added' | 'changed' | 'unchanged' | 'removed';
  decision: RowDecision;
  reason: string | null;
  participantId: string | null;
  participantRaceId: string | null;
  participantBib: string | null;
}

/** Who a row is, across versions: name + birth date, else e-mail, else its raw cells. */
function identity(fields: Fields, raw: string[] | null): string {
  const { nameKey, emailKey } = personKeys(fields);
  if (nameKey) return `n:${nameKey}`;
  if (emailKey) return `e:${emailKey}`;
  return raw ? `r:${raw.join('\u0001')}` : `f:${JSON.stringify(fields)}`;
}

/** The fields that say who a pupil is: a correction changes at most one of them. */
const PERSON: readonly RowField[] = ['firstName', 'lastName', 'birthDate'];

/**
 * How much a new row looks like a previous one, or 0 when they are not the same pupil: compared
 * over the fields filled in either row (accents, case and spaces ignored), at most one of first
 * name, last name and birth date differs (a fixed birth date, a filled-in name), and more fields
 * agree than differ (two siblings share a last name, gender and race, not a first name and a
 * birth date). The score is the number of agreeing fields.
 */
export function sameness(a: Fields, b: Fields): number {
  let agree = 0;
  let differ = 0;
  let personDiffer = 0;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]) as Set<RowField>;
  for (const k of keys) {
    const x = fold(a[k] ?? '');
    const y = fold(b[k] ?? '');
    if (!x && !y) continue;
    if (x === y) agree++;
    else {
      differ++;
      if (PERSON.includes(k)) personDiffer++;
    }
  }
  return personDiffer <= 1 && agree > differ && agree >= 2 ? agree : 0;
}

function changedFields(a: Fields, b: Fields): string[] {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]) as Set<RowField>;
  return [...keys].filter((k) => (a[k] ?? '') !== (b[k] ?? '')).sort();
}

/**
 * Compares a new version of a document with the rows it replaces (issue 17: "a new version shows
 * a diff … instead of flagging every row as a duplicate"). A row is the same person when its
 * identity matches, or else when most of its fields agree with a previous row's (`sameness`:
 * issue 29, the commonest corrections are a fixed birth date and a filled-in name); it keeps its decision and participant (a confirmed pupil stays confirmed),
 * and is `changed` when a mapped field differs. Previous rows matched by nobody are `removed`;
 * those already confirmed stay at the end of the document, `removed`, linked to their participant
 * (withdrawing a registered runner is a decision for staff, not a side effect of an upload).
 */
export function diffVersions(
  previous: readonly PreviousRow[],
  next: readonly { raw: string[]; fields: Fields }[],
  version: number,
): { rows: NextRow[]; diff: VersionDiff } {
  const pool = new Map<string, PreviousRow[]>();
  for (const row of previous) {
    const key = identity(row.fields, null);
    const list = pool.get(key);
    if (list) list.push(row);
    else pool.set(key, [row]);
  }
  const diff: VersionDiff = { version, added: [], removed: [], changed: [], unchanged: 0 };
  // First the rows whose identity did not change, then each row left is paired with the previous
  // row left that looks most like it (`sameness`), best pairs first.
  const matched = next.map((row) => pool.get(identity(row.fields, null))?.shift() ?? null);
  const left = new Set([...pool.values()].flat());
  const pairs: { k: number; prev: PreviousRow; score: number }[] = [];
  next.forEach((row, k) => {
    if (matched[k]) return;
    for (const prev of left) {
      const score = sameness(prev.fields, row.fields);
      if (score) pairs.push({ k, prev, score });
    }
  });
  pairs.sort(
    (a, b) => b.score - a.score || Math.abs(a.prev.position - a.k - 1) - Math.abs(b.prev.position - b.k - 1),
  );
  for (const { k, prev } of pairs) {
    if (matched[k] || !left.has(prev)) continue;
    matched[k] = prev;
    left.delete(prev);
  }
  const rows = next.map((row, k): NextRow => {
    const position = k + 1;
    const match = matched[k];
    if (!match) {
      diff.added.push(position);
      return {
        position,
        ...row,
        change: 'added',
        decision: 'pending',
        reason: null,
        participantId: null,
        participantRaceId: null,
        participantBib: null,
      };
    }
    const fields = changedFields(match.fields, row.fields);
    if (fields.length) diff.changed.push({ position, fields });
    else diff.unchanged++;
    return {
      position,
      ...row,
      change: fields.length ? 'changed' : 'unchanged',
      // A changed row that was not yet a participant is reviewed again.
      decision: match.decision === 'confirmed' || !fields.length ? match.decision : 'pending',
      reason: match.decision === 'confirmed' || !fields.length ? match.reason : null,
      participantId: match.participantId,
      participantRaceId: match.participantRaceId,
      participantBib: match.participantBib,
    };
  });
  for (const row of left) {
    diff.removed.push({
      position: row.position,
      name: `${row.fields.firstName ?? ''} ${row.fields.lastName ?? ''}`.trim(),
      confirmed: row.decision === 'confirmed',
    });
  }
  diff.removed.sort((a, b) => a.position - b.position);
  const kept = previous.filter(
    (p) => p.decision === 'confirmed' && diff.removed.some((r) => r.position === p.position),
  );
  for (const row of kept) {
    rows.push({
      position: rows.length + 1,
      raw: [],
      fields: row.fields,
      change: 'removed',
      decision: 'confirmed',
      reason: row.reason,
      participantId: row.participantId,
      participantRaceId: row.participantRaceId,
      participantBib: row.participantBib,
    });
  }
  return { rows, diff };
}
