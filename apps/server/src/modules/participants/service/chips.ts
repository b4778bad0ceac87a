import type { ChipImportOutcome } from '@tempora/contracts';
import * as repo from '../repository.ts';
import type { Actor, ParticipantsContext } from './shared.ts';
import type { Uploads } from './uploads.ts';

/**
 * Chip files (issue 14): a chip↔bib sheet checked against the race's runners (unknown bibs,
 * chips used twice) and, when asked, applied with its audit.
 */
export function createChips(ctx: ParticipantsContext, uploads: Uploads) {
  const { database, reload, race } = ctx;
  const { sheetsOf, pickSheet, checkMapping } = uploads;

  /**
   * A chip↔bib file: one or two chips per bib. Reports unknown bibs and chips used twice (in
   * the file or by another runner of the race); with `apply`, sets the chips of the rows
   * without problem.
   */
  async function chips(
    eventId: string,
    uploadId: string,
    request: {
      sheet?: string | undefined;
      raceId: string;
      mapping: { bib: string; chip: string; chip2?: string | undefined };
      apply: boolean;
    },
    actor: Actor,
  ): Promise<ChipImportOutcome> {
    const { sheets } = await sheetsOf(eventId, uploadId);
    const sheet = pickSheet(sheets, request.sheet);
    checkMapping(sheet, request.mapping);
    const target = await race(eventId, request.raceId);
    const runners = await repo.bibsAndChips(database, target.id);
    const byBib = new Map(runners.map((r) => [r.bib, r]));
    const col = (name: string | undefined) => (name === undefined ? -1 : sheet.header.indexOf(name));
    const [bibC, chipC, chip2C] = [
      col(request.mapping.bib),
      col(request.mapping.chip),
      col(request.mapping.chip2),
    ];
    const owner = new Map<string, string>();
    const fileBibs = new Set<string>();
    const issues: ChipImportOutcome['issues'] = [];
    const updates: { id: string; bib: string; chips: string[]; before: string[] }[] = [];
    for (const { line, cells } of sheet.rows) {
      const bib = cells[bibC] ?? '';
      const chips = [cells[chipC] ?? '', chip2C >= 0 ? (cells[chip2C] ?? '') : ''].filter(Boolean);
      if (!bib || !chips.length) {
        issues.push({ line, code: 'MISSING_FIELD', bib, chip: chips.join(' ') });
        continue;
      }
      const runner = byBib.get(bib);
      if (!runner) {
        issues.push({ line, code: 'UNKNOWN_BIB', bib, chip: chips.join(' ') });
        continue;
      }
      const twice = chips.find((c) => owner.has(c) && owner.get(c) !== bib);
      if (twice) {
        issues.push({ line, code: 'CHIP_USED_TWICE', bib, chip: twice });
        continue;
      }
      for (const c of chips) owner.set(c, bib);
      fileBibs.add(bib);
      updates.push({ id: runner.id, bib, chips, before: runner.chips });
    }
    // A chip kept by a runner the file does not mention is used twice too.
    for (const r of runners) {
      if (fileBibs.has(r.bib)) continue;
      for (const c of r.chips) {
        const other = owner.get(c);
        if (other) {
          const k = updates.findIndex((u) => u.bib === other);
          issues.push({ line: 0, code: 'CHIP_USED_TWICE', bib: r.bib, chip: c });
          if (k >= 0) updates.splice(k, 1);
        }
      }
    }
    if (request.apply && updates.length) {
      await database.transaction(async (sql) => {
        await repo.setChips(sql, updates);
        await repo.insertAudit(
          sql,
          updates.map((u) => ({
            participantId: u.id,
            raceId: target.id,
            action: 'chip' as const,
            changes: [{ field: 'chips', before: u.before, after: u.chips }],
          })),
          actor,
        );
        await repo.bumpEpoch(sql, [target.id]);
      });
      await reload(target.db);
    }
    issues.sort((a, b) => a.line - b.line);
    return { rows: sheet.rows.length, applied: request.apply ? updates.length : 0, issues };
  }

  return { chips };
}
