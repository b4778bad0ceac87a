import {
  type AthleteCard,
  type CertificateTemplate,
  correctionText,
  type ReportTable,
  type Verification,
} from '@tempora/contracts';
import { sharedLocales } from '@tempora/contracts/locales';
import { formatPace, statusOf } from '@tempora/domain';
import type { Database } from '../../db/database.ts';
import { secretOf } from '../../db/secrets.ts';
import { errors } from '../../errors.ts';
import { logoPng } from '../../lib/event-logo.ts';
import type { RaceLive, Results } from '../results/port.ts';
import { F, S } from '../results/port.ts';
import { type CertificateData, defaultTemplate } from './certificate.ts';
import type { ListMeta, ListSection } from './pdf-list.ts';
import * as repo from './repository.ts';
import { selectRows, textTableAsync } from './table-text.ts';
import { signCertificate, verifyCertificate } from './verify-token.ts';

type Lng = 'en' | 'fr';

/** A race date (`YYYY-MM-DD`) in words, in a language. */
export function longDate(iso: string, lng: Lng): string {
  const date = new Date(`${iso}T12:00:00Z`);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(lng === 'fr' ? 'fr-BE' : 'en-GB', {
    dateStyle: 'long',
    timeZone: 'UTC',
  }).format(date);
}

/** Finishers of a race overall, of participant i's gender and of their category. */
function finisherCounts(race: RaceLive, i: number) {
  const r = race.results;
  const gender = r.index.genderOf[i];
  const category = r.index.categoryOf[i];
  const counts = { overall: 0, gender: 0, category: 0 };
  for (let k = 0; k < r.index.n; k++) {
    if (statusOf(r, k) !== 'finished') continue;
    counts.overall++;
    if (r.index.genderOf[k] === gender) counts.gender++;
    if (category !== undefined && category >= 0 && r.index.categoryOf[k] === category) counts.category++;
  }
  return counts;
}

/**
 * Results out: the data behind exports, printed lists, certificates and their verification.
 * Everything is read from the results service's live state (the same rows the report pages show).
 */
export function createExportsService(deps: {
  database: Database;
  results: Results;
  /** DATA_DIR: where the event's logo is (printed on lists). */
  dataDir: string;
}) {
  const { database, results, dataDir } = deps;
  let secret: Promise<Buffer> | undefined;
  const certificateSecret = () => {
    secret ??= secretOf(database, 'certificates');
    secret.catch(() => {
      secret = undefined;
    });
    return secret;
  };

  /** A report of an event with its definition, race and event row. */
  async function report(eventId: string, group: string, reportKey: string) {
    const event = await repo.findEvent(database, eventId);
    if (!event) throw errors.notFound('EVENT_NOT_FOUND', `No event '${eventId}'`);
    const db = await results.contextOfGroup(eventId, group);
    const ctx = await results.state(db);
    const definition = ctx.reports.find((r) => r.key === reportKey && r.groupKey === group);
    if (!definition) throw errors.notFound('REPORT_NOT_FOUND', `No report '${reportKey}'`);
    const { etag: _etag, ...table } = ctx.table(definition);
    const race = ctx.races.get(definition.definition.raceId);
    return { event, definition, table: { ...table, total: table.rows.length } as ReportTable, race };
  }

  return {
    report,

    /** A report's rows after the page's search, as text in a language, with the list's sections. */
    async exportTable(
      eventId: string,
      group: string,
      reportKey: string,
      options: {
        lng: Lng;
        q?: string | undefined;
        sections: 'none' | 'category';
        format?: 'csv' | 'xlsx' | 'pdf';
      },
    ) {
      const { event, definition, table, race } = await report(eventId, group, reportKey);
      const rows = selectRows(table, options.q);
      // CSV and XLSX are data: a running time's point in its own column (issue 41); the printed
      // list reads as the page (`1:30:11 · 30 km`).
      const text = await textTableAsync(table, rows, options.lng, options.format !== 'pdf');
      const kind = definition.definition.kind;
      const categoryField = kind === 'ranking' ? F.category : kind === 'startList' ? S.category : -1;
      let sections: ListSection[] = [{ heading: null, rows: text.rows }];
      if (options.sections === 'category' && categoryField >= 0) {
        // Sections in the race's category order, then any other value; rows keep their order.
        const order = race?.results.index.race.categories.map((c) => c.name) ?? [];
        const byCategory = new Map<string, string[][]>(order.map((name) => [name, []]));
        rows.forEach((row, k) => {
          const name = String(row[categoryField] ?? '');
          const list = byCategory.get(name) ?? [];
          list.push(text.rows[k]!);
          byCategory.set(name, list);
        });
        const other = sharedLocales[options.lng].printing.noCategory;
        sections = [...byCategory]
          .filter(([, list]) => list.length)
          .map(([name, list]) => ({ heading: name || other, rows: list }));
        if (!sections.length) sections = [{ heading: null, rows: [] }];
      }
      const meta: ListMeta = {
        eventName: event.name,
        color: /^#[0-9a-fA-F]{6}$/.test(event.branding.color ?? '') ? event.branding.color! : '#39aade',
        tagline: event.branding.tagline ?? '',
        place: event.place,
        raceName: race?.row.name ?? '',
        date: longDate(race?.row.raceDate ?? event.startDate, options.lng),
        timeZone: event.timeZone || 'Europe/Brussels',
        lng: options.lng,
        logo: event.logoVersion ? await logoPng(dataDir, event.id) : null,
      };
      return { text, sections, meta };
    },

    /** The template of an event (the default one until the organiser saves theirs). */
    async template(eventId: string) {
      const row = await repo.templateOf(database, eventId);
      return {
        template: row?.template ?? defaultTemplate(),
        hasBackground: row?.hasBackground ?? false,
        saved: row !== undefined,
      };
    },

    async saveTemplate(eventId: string, template: CertificateTemplate) {
      await repo.saveTemplate(database, eventId, template);
    },

    /**
     * What a finisher's certificate shows, and its signed verification URL under `origin`. 404
     * for an unknown key, 409 NOT_FINISHED before the finish.
     */
    async certificateData(
      trackingKey: string,
      lng: Lng,
      origin: string,
    ): Promise<{ data: CertificateData; eventId: string }> {
      const card = await results.tracking(trackingKey);
      if (card.status !== 'finished')
        throw errors.conflict('NOT_FINISHED', 'A certificate is made once the runner has finished');
      const event = await repo.findEvent(database, card.eventId);
      const ctx = await results.state(card.db);
      const race = ctx.races.get(card.race.id)!;
      const i = race.byTracking.get(trackingKey)!;
      const finish = card.splits.at(-1)!;
      const token = signCertificate(await certificateSecret(), {
        trackingKey,
        netMs: finish.netMs ?? 0,
        issuedAt: Date.now(),
      });
      return {
        eventId: card.eventId,
        data: {
          eventName: event?.name ?? card.eventId,
          raceName: card.race.name,
          date: longDate(race.row.raceDate, lng),
          name: `${card.athlete.firstName} ${card.athlete.lastName}`,
          bib: card.athlete.bib,
          category: card.athlete.category ?? '',
          club: card.athlete.club,
          netMs: finish.netMs ?? 0,
          gunMs: finish.gunMs ?? 0,
          rankOverall: finish.rankOverall,
          rankGender: finish.rankGender,
          rankCategory: finish.rankCategory,
          finishers: finisherCounts(race, i),
          pace: formatPace(finish.paceMsPerKm ?? Number.NaN),
          // Each point by its name in the certificate's language (issue 43: "Finish" on a French one).
          splits: card.race.points.map((p, k) => ({
            name: lng === 'fr' && p.nameFr ? p.nameFr : p.name,
            netMs: card.splits[k]?.netMs ?? null,
          })),
          verifyUrl: `${origin.replace(/\/$/, '')}/#/verify/${token}`,
          corrections: (card.corrections ?? []).map((c) => correctionText(c, lng, card.timeZone)),
        },
      };
    },

    /** A sample finisher of an event (the designer's preview): the first one found. */
    async sampleFinisher(eventId: string): Promise<string> {
      const rows = await database.query<{ db: string }>('SELECT db FROM contexts WHERE event_id = $1', [
        eventId,
      ]);
      for (const { db } of rows) {
        const ctx = await results.state(db);
        for (const race of ctx.races.values()) {
          for (let i = 0; i < race.results.index.n; i++) {
            if (statusOf(race.results, i) === 'finished') return race.participants[i]!.trackingKey;
          }
        }
      }
      throw errors.conflict('NO_FINISHER', 'No runner of this event has finished yet');
    },

    /** The claim of a genuine verification token (null: not genuine). */
    async certificateClaim(token: string) {
      return verifyCertificate(await certificateSecret(), token);
    },

    /** A verification token checked, and the result as the server knows it now. */
    async verify(token: string): Promise<Verification> {
      const claim = verifyCertificate(await certificateSecret(), token);
      if (!claim) throw errors.notFound('CERTIFICATE_INVALID', 'This certificate is not genuine');
      let card: AthleteCard;
      try {
        card = await results.tracking(claim.trackingKey);
      } catch {
        throw errors.notFound('CERTIFICATE_INVALID', 'This certificate’s runner no longer exists');
      }
      const event = await repo.findEvent(database, card.eventId);
      const ctx = await results.state(card.db);
      const race = ctx.races.get(card.race.id)!;
      const finish = card.splits.at(-1);
      const finished = card.status === 'finished';
      return {
        valid: true,
        eventId: card.eventId,
        eventName: event?.name ?? card.eventId,
        race: { id: card.race.id, name: card.race.name, date: race.row.raceDate },
        athlete: {
          bib: card.athlete.bib,
          name: `${card.athlete.firstName} ${card.athlete.lastName}`,
          category: card.athlete.category,
          club: card.athlete.club,
        },
        status: card.status,
        netMs: finished ? (finish?.netMs ?? null) : null,
        gunMs: finished ? (finish?.gunMs ?? null) : null,
        rankOverall: finished ? (finish?.rankOverall ?? null) : null,
        rankGender: finished ? (finish?.rankGender ?? null) : null,
        rankCategory: finished ? (finish?.rankCategory ?? null) : null,
        issuedAt: claim.issuedAt,
        certificateNetMs: claim.netMs,
        // Issue 43: a correction of the official results after it was issued replaced this
        // certificate (the tracking card's is the re-issued one).
        ...replacement(card, claim.issuedAt),
      };
    },
  };
}

/** The corrections since a certificate was issued, and when the last one replaced it. */
function replacement(card: AthleteCard, issuedAt: number) {
  const since = (card.corrections ?? []).filter((c) => c.atMs > issuedAt);
  return { replacedAtMs: since[0]?.atMs ?? null, corrections: since, timeZone: card.timeZone };
}

export type ExportsService = ReturnType<typeof createExportsService>;
