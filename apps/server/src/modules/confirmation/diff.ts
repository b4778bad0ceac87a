import type { RowDecision, RowField, VersionDiff } from '@tempora/contracts';
import { type Fields, personKeys } from './validate.ts';

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

function changedFields(a: Fields, b: Fields): string[] {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]) as Set<RowField>;
  return [...keys].filter((k) => (a[k] ?? '') !== (b[k] ?? '')).sort();
}

/**
 * Compares a new version of a document with the rows it replaces (issue 17: "a new version shows
 * a diff … instead of flagging every row as a duplicate"). A row is the same person when its
 * identity matches; it keeps its decision and participant (a confirmed pupil stays confirmed),
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
  const rows = next.map((row, k): NextRow => {
    const position = k + 1;
    const match = pool.get(identity(row.fields, null))?.shift();
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
  for (const left of pool.values()) {
    for (const row of left) {
      diff.removed.push({
        position: row.position,
        name: `${row.fields.firstName ?? ''} ${row.fields.lastName ?? ''}`.trim(),
        confirmed: row.decision === 'confirmed',
      });
    }
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
