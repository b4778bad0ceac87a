import type {
  ConfirmationEvent,
  DocumentDetail,
  DocumentList,
  DocumentStatus,
  DocumentSummary,
  EventDocuments,
} from '@tempora/contracts';
import { documentStatuses } from '@tempora/contracts';
import * as repo from '../repository.ts';
import { type ConfirmationContext, senderKey, unitPrice } from './shared.ts';

/**
 * What the confirmation pages read (issue 17): documents summarised with their row counts and
 * fees, a document's detail, the events with their races, the list with counts by status, an
 * event's documents with totals. Reads only.
 */
export function createViews(ctx: ConfirmationContext) {
  const { database } = ctx;

  /** Summaries with counts and fees. */
  async function summarise(docs: repo.DocumentRecord[]): Promise<DocumentSummary[]> {
    if (!docs.length) return [];
    const ids = docs.map((d) => d.id);
    const counts = await repo.countsOf(database, ids);
    const byRace = await repo.billedByRace(database, ids);
    const races = new Map(
      (await repo.racesOfEvents(database, [...new Set(docs.map((d) => d.eventId))])).map((r) => [r.id, r]),
    );
    return docs.map((d) => {
      const c = counts.get(d.id);
      const fees = byRace
        .filter((b) => b.documentId === d.id)
        .reduce(
          (sum, b) => sum + b.count * unitPrice(races.get(b.raceId)?.settings.tariffs ?? [], d.receivedOn),
          0,
        );
      const pending = c?.pending ?? 0;
      return {
        id: d.id,
        eventId: d.eventId,
        eventName: d.eventName,
        title: d.title,
        senderName: d.senderName,
        senderKind: d.senderKind,
        contactName: d.contactName,
        contactEmail: d.contactEmail,
        status: d.status,
        version: d.version,
        receivedOn: d.receivedOn,
        updatedAt: d.updatedAt,
        counts: {
          rows: c?.rows ?? 0,
          confirmed: c?.confirmed ?? 0,
          rejected: c?.rejected ?? 0,
          pending,
          toFix: c?.toFix ?? 0,
          toReview: c?.toReview ?? 0,
          clean: pending - (c?.toFix ?? 0) - (c?.toReview ?? 0),
        },
        feesCents: fees,
      };
    });
  }

  async function detail(doc: repo.DocumentRecord): Promise<DocumentDetail> {
    const [summary] = await summarise([doc]);
    return {
      ...summary!,
      defaultRaceId: doc.defaultRaceId,
      sheet: doc.sheet,
      sheets: doc.sheets.map((s) => s.name),
      sheetHeaders: Object.fromEntries(doc.sheets.map((s) => [s.name, s.headers])),
      headers: doc.headers,
      mapping: doc.mapping,
      suggestedMapping: await repo.mappingOf(database, senderKey(doc)),
      diff: doc.diff,
      rejectReason: doc.rejectReason,
      history: await repo.historyOf(database, doc.id),
      canUndo: await repo.hasEdits(database, doc.id),
    };
  }

  /** Events (with races and settings) among `eventIds`, or every event when null. */
  async function events(organisationIds: string[] | null): Promise<ConfirmationEvent[]> {
    const events = await database.query<{ id: string; name: string }>(
      `SELECT id, name FROM events ${organisationIds ? 'WHERE organisation_id = ANY($1::uuid[])' : ''}
          ORDER BY start_date DESC, id LIMIT 500`,
      organisationIds ? [organisationIds] : [],
    );
    const races = await repo.racesOfEvents(
      database,
      events.map((e) => e.id),
    );
    return events.map((e) => ({
      ...e,
      races: races
        .filter((r) => r.eventId === e.id)
        .map((r) => ({
          id: r.id,
          name: r.name,
          date: r.date,
          categories: r.categories.map((c) => ({ id: c.id, name: c.name })),
          participants: r.participants,
          settings: r.settings,
        })),
    }));
  }

  async function list(
    organisationIds: string[] | null,
    query: { q: string; eventId?: string | undefined; status?: DocumentStatus | undefined },
  ): Promise<DocumentList> {
    const all = await repo.listDocuments(database, { organisationIds, q: query.q, eventId: query.eventId });
    const countsByStatus = Object.fromEntries(
      documentStatuses.map((s) => [s, 0]),
    ) as DocumentList['countsByStatus'];
    for (const d of all) countsByStatus[d.status]++;
    const shown = query.status ? all.filter((d) => d.status === query.status) : all;
    return { documents: await summarise(shown), countsByStatus };
  }

  async function eventDocuments(event: { id: string; name: string }): Promise<EventDocuments> {
    const documents = await summarise(
      await repo.listDocuments(database, { organisationIds: null, eventId: event.id, q: '' }),
    );
    const totals = { rows: 0, confirmed: 0, toFix: 0, feesCents: 0 };
    for (const d of documents) {
      totals.rows += d.counts.rows;
      totals.confirmed += d.counts.confirmed;
      totals.toFix += d.counts.toFix;
      totals.feesCents += d.feesCents;
    }
    return { event, documents, totals };
  }

  return { summarise, detail, events, list, eventDocuments };
}

export type Views = ReturnType<typeof createViews>;
