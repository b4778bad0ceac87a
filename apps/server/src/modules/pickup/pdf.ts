import type { Readable } from 'node:stream';
import type { PickupRunner } from '@tempora/contracts';
import { sharedLocales } from '@tempora/contracts/locales';
import { foldText } from '@tempora/domain';
import { type ListMeta, type ListSection, pdfListStream } from '../exports/port.ts';

/** What the paper list holds: by bib range or by name range, one race or all. */
export interface PickupPdfQuery {
  order: 'bib' | 'name';
  from?: number | undefined;
  to?: number | undefined;
  fromName?: string | undefined;
  toName?: string | undefined;
  race?: string | undefined;
}

const money = (cents: number, lng: 'en' | 'fr') =>
  lng === 'fr' ? (cents / 100).toFixed(2).replace('.', ',') : (cents / 100).toFixed(2);

/** The runners a paper list holds, in its order (bib numbers first, then names). */
export function pickupRows(runners: readonly PickupRunner[], q: PickupPdfQuery): PickupRunner[] {
  const num = (bib: string | null) => (bib && /^\d+$/.test(bib) ? Number(bib) : null);
  const name = (r: PickupRunner) => foldText(`${r.lastName} ${r.firstName}`);
  const from = q.fromName ? foldText(q.fromName) : '';
  const to = q.toName ? foldText(q.toName) : '';
  return runners
    .filter((r) => !q.race || r.raceId === q.race)
    .filter((r) => {
      if (q.order === 'bib') {
        const n = num(r.bib);
        if (q.from === undefined && q.to === undefined) return true;
        return n !== null && (q.from === undefined || n >= q.from) && (q.to === undefined || n <= q.to);
      }
      const folded = name(r);
      return (!from || folded >= from) && (!to || folded.slice(0, to.length) <= to);
    })
    .sort((a, b) => {
      if (q.order === 'name') return name(a).localeCompare(name(b));
      const [x, y] = [num(a.bib), num(b.bib)];
      if (x !== null && y !== null) return x - y;
      if (x !== null) return -1;
      if (y !== null) return 1;
      return (a.bib ?? '').localeCompare(b.bib ?? '') || name(a).localeCompare(name(b));
    });
}

/**
 * The pickup list on paper (issue 39: the fallback when phones fail): bib, name, race, wave, chip,
 * what to hand out, unpaid, guardian consent missing, and an empty column to tick — written by
 * the result lists' PDF writer (exports module), in the event's language.
 */
export function pickupPdf(runners: readonly PickupRunner[], q: PickupPdfQuery, meta: ListMeta): Readable {
  const t = sharedLocales[meta.lng].printing.pickup;
  const headers = [t.bib, t.name, t.race, t.wave, t.chip, t.toHandOut, t.unpaid, t.handedOut];
  const rows = pickupRows(runners, q).map((r) => [
    r.bib ?? '',
    `${r.lastName.toUpperCase()} ${r.firstName}`,
    r.raceName,
    r.wave ?? '',
    r.chips.join(' '),
    [...r.addOns.map((a) => `${a.name} ×${a.quantity}`), ...(r.guardianMissing ? [t.guardian] : [])].join(
      ', ',
    ),
    r.unpaidCents > 0 ? money(r.unpaidCents, meta.lng) : '',
    r.handedOut ? '✓' : '',
  ]);
  const sections: ListSection[] = [{ heading: null, rows }];
  return pdfListStream(
    {
      title: t.title,
      headers,
      aligns: headers.map((_, k) => (k === 0 || k === 6 ? 'right' : 'left')),
      bold: headers.map((_, k) => k === 0),
      rows,
    },
    sections,
    meta,
    'landscape',
  );
}
