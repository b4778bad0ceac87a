import type {
  BulkAction,
  ConfirmationEvent,
  CreateDocument,
  DocumentDetail,
  DocumentList,
  DocumentStatus,
  DocumentSummary,
  EventDocuments,
  RowEdits,
  Tariff,
} from '@tempora/contracts';
import { documentStatuses } from '@tempora/contracts';
import type { Database, Sql } from '../../db/database.ts';
import { errors } from '../../errors.ts';
import type { Outbox } from '../../identity/outbox.ts';
import { unknownColumns } from '../../lib/tabular/columns.ts';
import { documentOrder, orderForDocument, paymentTerms } from '../payments/port.ts';
import { diffVersions } from './diff.ts';
import { documentMail } from './mail.ts';
import { readFile, splitSheet } from './parse.ts';
import { buildReport } from './report.ts';
import * as repo from './repository.ts';
import {
  type Fields,
  fold,
  type KnownPerson,
  mapRow,
  normaliseField,
  personKeys,
  validateRows,
} from './validate.ts';

/** Who acts (history, `created_by`). */
export interface Actor {
  sub: string;
  email: string;
}

export interface ConfirmationDeps {
  database: Database;
  outbox: Pick<Outbox, 'send'>;
  /** Drops the cached live state of a context after participants were added (results module). */
  invalidateContext: (db: string) => void;
  publicUrl: string | undefined;
  /** Today as `YYYY-MM-DD` (tests move it). */
  today?: () => string;
}

/** Statuses in which a document's rows may still change. */
const OPEN: readonly DocumentStatus[] = ['uploaded', 'mapped', 'validated', 'partlyConfirmed', 'confirmed'];

/** The price of one entry in a race for a document received on `receivedOn` (date-based tariff). */
export function unitPrice(tariffs: readonly Tariff[], receivedOn: string): number {
  const sorted = [...tariffs].sort((a, b) => (a.until ?? '9999').localeCompare(b.until ?? '9999'));
  return (
    (sorted.find((t) => t.until === null || t.until >= receivedOn) ?? sorted[sorted.length - 1])
      ?.priceCents ?? 0
  );
}

const senderKey = (doc: { senderKind: string; senderName: string }) =>
  `${doc.senderKind}:${fold(doc.senderName)}`;
const todayUtc = () => new Date().toISOString().slice(0, 10);

export type ConfirmationService = ReturnType<typeof createConfirmationService>;

/**
 * Registration documents (issue 17): upload, mapping, validation, edits with undo, merges,
 * confirmation into participants, rejection, closing, with a history of who did what.
 */
export function createConfirmationService(deps: ConfirmationDeps) {
  const { database } = deps;
  const today = deps.today ?? todayUtc;

  async function history(
    documentId: string,
    actor: Actor | null,
    action: string,
    detail: object = {},
    sql: Sql = database,
  ) {
    await repo.addHistory(sql, {
      documentId,
      actorSub: actor?.sub ?? null,
      actorEmail: actor?.email ?? '',
      action,
      detail,
    });
  }

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

  async function reload(id: string): Promise<repo.DocumentRecord> {
    const doc = await repo.findDocument(database, id);
    if (!doc) throw errors.notFound('DOCUMENT_NOT_FOUND', `No document '${id}'`);
    return doc;
  }

  function requireOpen(doc: repo.DocumentRecord) {
    if (!OPEN.includes(doc.status))
      throw errors.conflict('DOCUMENT_LOCKED', `The document is ${doc.status}: it can no longer change`);
  }

  function requireRows(doc: repo.DocumentRecord) {
    requireOpen(doc);
    if (doc.rowsVersion === 0 || !Object.keys(doc.mapping).length)
      throw errors.conflict('DOCUMENT_NOT_MAPPED', 'Upload a file and map its columns first');
  }

  /** The status the rows give a mapped document (validated, partly confirmed, confirmed). */
  async function statusFromRows(documentId: string): Promise<DocumentStatus> {
    const c = (await repo.countsOf(database, [documentId])).get(documentId);
    if (!c || c.confirmed === 0) return 'validated';
    return c.pending > 0 ? 'partlyConfirmed' : 'confirmed';
  }

  /**
   * Validates every row against the event (races, participants, other documents) and stores
   * the verdicts; moves the document to the status its rows give. Mails the contact when the
   * document becomes confirmed.
   */
  async function revalidate(doc: repo.DocumentRecord, actor: Actor | null) {
    const rows = await repo.rowsOf(database, doc.id);
    const races = await repo.racesOfEvents(database, [doc.eventId]);
    const bibs = await repo.bibsOf(
      database,
      races.map((r) => r.id),
    );
    const own = new Set(
      rows.filter((r) => r.participantRaceId).map((r) => `${r.participantRaceId}\u0000${r.participantBib}`),
    );
    const participants: KnownPerson[] = (await repo.participantsOfEvent(database, doc.eventId))
      .filter((p) => !own.has(`${p.raceId}\u0000${p.bib}`))
      .map((p) => ({
        link: {
          by: 'name',
          kind: 'participant',
          raceId: p.raceId,
          bib: p.bib,
          name: `${p.firstName} ${p.lastName}`,
        },
        ...personKeys({ firstName: p.firstName, lastName: p.lastName, birthDate: p.birthDate ?? '' }),
        emailKey: '',
      }));
    const otherRows: KnownPerson[] = (await repo.otherRowsOfEvent(database, doc.eventId, doc.id)).map(
      (r) => ({
        link: {
          by: 'name',
          kind: 'document',
          documentId: r.documentId,
          documentTitle: r.title,
          rowId: r.id,
          position: r.position,
        },
        ...personKeys(r.fields),
      }),
    );
    const verdicts = await validateRows(
      rows.map((r) => ({
        id: r.id,
        position: r.position,
        fields: r.fields,
        decision: r.decision,
        participantRaceId: r.participantRaceId,
      })),
      {
        today: today(),
        defaultRaceId: doc.defaultRaceId,
        participants,
        otherRows,
        races: races.map((r) => ({
          id: r.id,
          name: r.name,
          date: r.date,
          categories: r.categories,
          ageBasis: r.ageBasis,
          capacity: r.settings.capacity,
          bibFrom: r.settings.bibFrom,
          bibTo: r.settings.bibTo,
          registered: r.participants,
          takenBibs: new Set(bibs.filter((b) => b.raceId === r.id).map((b) => b.bib)),
        })),
      },
    );
    const changed = rows.filter((r) => {
      const v = verdicts.get(r.id)!;
      return (
        JSON.stringify(v.issues) !== JSON.stringify(r.issues) ||
        JSON.stringify(v.duplicateOf) !== JSON.stringify(r.duplicateOf) ||
        v.category !== r.category
      );
    });
    await repo.saveVerdicts(
      database,
      changed.map((r) => ({ id: r.id, ...verdicts.get(r.id)! })),
    );
    await settleStatus(doc, actor);
  }

  /** Moves a mapped document to the status its rows give (history; mail when it becomes confirmed). */
  async function settleStatus(doc: repo.DocumentRecord, actor: Actor | null) {
    const status = await statusFromRows(doc.id);
    if (status === doc.status) return;
    await repo.updateDocument(database, doc.id, { status });
    await history(doc.id, actor, status);
    if (status === 'confirmed') {
      await billDocument(await reload(doc.id), actor);
      await notify(await reload(doc.id), 'confirmed');
    }
  }

  /**
   * A confirmed document's fees become an order of its sender (issue 29), with a structured
   * communication and an invoice: the report's total (merged pupils are not billed again).
   */
  async function billDocument(doc: repo.DocumentRecord, actor: Actor | null) {
    const [summary] = await summarise([doc]);
    const report = buildReport(
      summary!,
      doc,
      await repo.rowsOf(database, doc.id),
      await repo.racesOfEvents(database, [doc.eventId]),
    );
    const orderId = await database.transaction((sql) => orderForDocument(sql, doc, report.totals.feesCents));
    if (orderId) await history(doc.id, actor, 'billed', { orderId, feesCents: report.totals.feesCents });
  }

  async function notify(doc: repo.DocumentRecord, kind: 'confirmed' | 'rejected') {
    const [summary] = await summarise([doc]);
    const order = kind === 'confirmed' ? await documentOrder(database, doc.id) : null;
    const settings = order ? await paymentTerms(database, doc.eventId) : null;
    const payment = order && {
      ...order,
      iban: settings?.iban ?? '',
      beneficiary: settings?.beneficiary ?? '',
    };
    await deps.outbox.send({
      to: doc.contactEmail,
      ...documentMail(kind, summary!, doc, deps.publicUrl, payment ?? undefined),
    });
    await history(doc.id, null, 'mailed', { to: doc.contactEmail, kind });
  }

  /** Builds a document's rows from its file version and mapping, keeping decisions (diff). */
  async function buildRows(doc: repo.DocumentRecord, actor: Actor) {
    const cells = await repo.fileCells(database, doc.id, doc.version);
    const sheet = cells?.[doc.sheet ?? ''];
    if (!sheet) throw errors.badRequest('SHEET_NOT_FOUND', `No sheet '${doc.sheet}' in the file`);
    const { headers, data } = splitSheet(sheet);
    const next = data.map((raw) => ({ raw, fields: mapRow(raw, headers, doc.mapping) }));
    const previous = await repo.rowsOf(database, doc.id);
    const { rows, diff } = diffVersions(previous, next, doc.version);
    const newVersion = doc.rowsVersion !== doc.version && doc.rowsVersion > 0;
    await database.transaction(async (sql) => {
      await repo.replaceRows(
        sql,
        doc.id,
        rows.map((r) => ({ ...r, change: newVersion ? r.change : null })),
      );
      await repo.updateDocument(sql, doc.id, {
        status: 'mapped',
        rowsVersion: doc.version,
        headers,
        ...(newVersion ? { diff } : {}),
      });
      await repo.clearEdits(sql, doc.id);
      await history(doc.id, actor, 'mapped', { rows: rows.length, version: doc.version }, sql);
      if (newVersion)
        await history(
          doc.id,
          actor,
          'diff',
          {
            version: doc.version,
            added: diff.added.length,
            removed: diff.removed.length,
            changed: diff.changed.length,
          },
          sql,
        );
    });
    await revalidate(await reload(doc.id), actor);
  }

  return {
    detail,
    reload,
    summarise,
    revalidate,

    /** Events (with races and settings) among `eventIds`, or every event when null. */
    async events(organisationIds: string[] | null): Promise<ConfirmationEvent[]> {
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
    },

    async list(
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
    },

    async eventDocuments(event: { id: string; name: string }): Promise<EventDocuments> {
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
    },

    async create(input: Required<CreateDocument>, actor: Actor): Promise<DocumentDetail> {
      if (input.defaultRaceId) {
        const race = await repo.findRace(database, input.defaultRaceId);
        if (!race || race.eventId !== input.eventId)
          throw errors.badRequest('RACE_NOT_FOUND', `No race '${input.defaultRaceId}' in this event`);
      }
      const id = await repo.insertDocument(database, {
        ...input,
        contactName: input.contactName ?? '',
        createdBy: actor.sub,
      });
      await history(id, actor, 'created', { title: input.title, sender: input.senderName });
      return detail(await reload(id));
    },

    /**
     * A new version of the document's file. The first sheet is chosen; with a mapping already
     * known (this document's, else the sender's) whose columns all exist, rows are built and
     * validated at once, compared with the previous version.
     */
    async upload(
      doc: repo.DocumentRecord,
      bytes: Buffer,
      name: string,
      actor: Actor,
    ): Promise<DocumentDetail> {
      requireOpen(doc);
      const file = await readFile(bytes);
      const sheets = Object.entries(file.sheets).map(([name, rows]) => ({
        name,
        headers: splitSheet(rows).headers,
      }));
      const version = doc.version + 1;
      const sheet = doc.sheet && file.sheets[doc.sheet] ? doc.sheet : sheets[0]!.name;
      const { headers } = splitSheet(file.sheets[sheet]!);
      const known = Object.keys(doc.mapping).length
        ? doc.mapping
        : await repo.mappingOf(database, senderKey(doc));
      const usable =
        Object.keys(known).length > 0 && Object.values(known).every((h) => headers.includes(h as string));
      await database.transaction(async (sql) => {
        await repo.insertFile(sql, {
          documentId: doc.id,
          version,
          name,
          kind: file.kind,
          content: bytes,
          cells: file.sheets,
          by: actor.sub,
        });
        await repo.updateDocument(sql, doc.id, {
          version,
          sheet,
          sheets,
          headers,
          status: 'uploaded',
          mapping: usable ? known : doc.mapping,
        });
        await history(
          doc.id,
          actor,
          'uploaded',
          { version, name, kind: file.kind, rows: file.sheets[sheet]!.length - 1 },
          sql,
        );
      });
      if (usable) await buildRows(await reload(doc.id), actor);
      return detail(await reload(doc.id));
    },

    /** Chooses the sheet and maps its columns (remembered for the sender), then validates. */
    async setMapping(
      doc: repo.DocumentRecord,
      input: { sheet?: string | undefined; mapping: Fields; defaultRaceId?: string | null | undefined },
      actor: Actor,
    ): Promise<DocumentDetail> {
      requireOpen(doc);
      if (doc.version === 0) throw errors.conflict('NO_FILE', 'Upload a file first');
      const sheet = input.sheet ?? doc.sheet ?? '';
      if (!doc.sheets.some((s) => s.name === sheet))
        throw errors.badRequest('SHEET_NOT_FOUND', `No sheet '${sheet}' in the file`);
      const cells = await repo.fileCells(database, doc.id, doc.version);
      const { headers } = splitSheet(cells?.[sheet] ?? []);
      const unknown = unknownColumns(headers, input.mapping, { fieldPrefix: 'mapping.' });
      if (unknown.length)
        throw errors.badRequest(
          'MAPPING_INVALID',
          'The mapping names columns the sheet does not have',
          unknown,
        );
      if (!input.mapping.firstName || !input.mapping.lastName)
        throw errors.badRequest('MAPPING_INVALID', 'Map at least the first and last name columns', [
          { field: 'mapping', message: 'firstName and lastName are required' },
        ]);
      if (input.defaultRaceId) {
        const race = await repo.findRace(database, input.defaultRaceId);
        if (!race || race.eventId !== doc.eventId)
          throw errors.badRequest('RACE_NOT_FOUND', `No race '${input.defaultRaceId}' in this event`);
      }
      await repo.updateDocument(database, doc.id, {
        sheet,
        headers,
        mapping: input.mapping,
        ...(input.defaultRaceId !== undefined ? { defaultRaceId: input.defaultRaceId } : {}),
      });
      await repo.rememberMapping(database, senderKey(doc), input.mapping);
      await buildRows(await reload(doc.id), actor);
      return detail(await reload(doc.id));
    },

    rows: (doc: repo.DocumentRecord) => repo.rowsOf(database, doc.id),

    /** Cell edits (one undo step), then validation again. Confirmed rows are locked. */
    async edit(doc: repo.DocumentRecord, input: RowEdits, actor: Actor) {
      requireRows(doc);
      const rows = new Map((await repo.rowsOf(database, doc.id)).map((r) => [r.id, r]));
      const touched = new Map<string, repo.RowRecord>();
      for (const edit of input.edits) {
        const row = rows.get(edit.rowId);
        if (!row) throw errors.notFound('ROW_NOT_FOUND', `No row '${edit.rowId}' in this document`);
        if (row.decision === 'confirmed')
          throw errors.conflict('ROW_CONFIRMED', `Row ${row.position} is already a participant`);
        const copy = touched.get(row.id) ?? { ...row, fields: { ...row.fields } };
        copy.fields[edit.field] = normaliseField(edit.field, edit.value);
        touched.set(row.id, copy);
      }
      await saveStep(doc, [...touched.values()], rows, actor, 'edited', {
        cells: input.edits
          .map((e) => ({ position: rows.get(e.rowId)!.position, field: e.field, value: e.value }))
          .slice(0, 50),
        count: input.edits.length,
      });
      return repo.rowsOf(database, doc.id);
    },

    /** Bulk actions on a selection: set the race, reject, restore (one undo step). */
    async bulk(doc: repo.DocumentRecord, action: BulkAction, actor: Actor) {
      requireRows(doc);
      const rows = new Map((await repo.rowsOf(database, doc.id)).map((r) => [r.id, r]));
      const selected = action.rowIds.map((id) => {
        const row = rows.get(id);
        if (!row) throw errors.notFound('ROW_NOT_FOUND', `No row '${id}' in this document`);
        if (row.decision === 'confirmed')
          throw errors.conflict('ROW_CONFIRMED', `Row ${row.position} is already a participant`);
        return { ...row, fields: { ...row.fields } };
      });
      if (action.action === 'setRace') {
        const race = await repo.findRace(database, action.raceId);
        if (!race || race.eventId !== doc.eventId)
          throw errors.badRequest('RACE_NOT_FOUND', `No race '${action.raceId}' in this event`);
        for (const row of selected) row.fields.race = race.id;
      } else if (action.action === 'reject') {
        for (const row of selected)
          Object.assign(row, { decision: 'rejected', reason: action.reason || null });
      } else {
        for (const row of selected) Object.assign(row, { decision: 'pending', reason: null });
      }
      await saveStep(
        doc,
        selected,
        rows,
        actor,
        action.action === 'setRace'
          ? 'raceSet'
          : action.action === 'reject'
            ? 'rowsRejected'
            : 'rowsRestored',
        {
          positions: selected.map((r) => r.position).slice(0, 200),
          count: selected.length,
          ...(action.action === 'setRace' ? { raceId: action.raceId } : {}),
        },
      );
      return repo.rowsOf(database, doc.id);
    },

    /** Undoes the latest edit, bulk action or merge not yet undone. */
    async undo(doc: repo.DocumentRecord, actor: Actor) {
      requireRows(doc);
      const before = await repo.popEdit<repo.RowRecord>(database, doc.id);
      if (!before) throw errors.conflict('NOTHING_TO_UNDO', 'There is no edit to undo');
      await repo.saveRowStates(database, before);
      await history(doc.id, actor, 'undone', { count: before.length });
      await revalidate(await reload(doc.id), actor);
      return repo.rowsOf(database, doc.id);
    },

    /**
     * Merges a duplicate: into the participant it repeats (the row becomes that participant), or
     * into the row it repeats (empty cells of the original are filled from it, then it is rejected).
     */
    async merge(doc: repo.DocumentRecord, rowId: string, actor: Actor) {
      requireRows(doc);
      const rows = new Map((await repo.rowsOf(database, doc.id)).map((r) => [r.id, r]));
      const row = rows.get(rowId);
      if (!row) throw errors.notFound('ROW_NOT_FOUND', `No row '${rowId}' in this document`);
      if (row.decision !== 'pending' || !row.duplicateOf)
        throw errors.conflict('NOT_A_DUPLICATE', `Row ${row.position} is not a pending duplicate`);
      const dup = row.duplicateOf;
      const changed: repo.RowRecord[] = [];
      if (dup.kind === 'participant') {
        changed.push({
          ...row,
          decision: 'confirmed',
          reason: repo.MERGED,
          participantId: (await repo.participantIds(database, dup.raceId, [dup.bib])).get(dup.bib) ?? null,
          participantRaceId: dup.raceId,
          participantBib: dup.bib,
        });
      } else if (dup.kind === 'row') {
        const original = rows.get(dup.rowId);
        if (original && original.decision === 'pending') {
          const fields = { ...original.fields };
          for (const [k, v] of Object.entries(row.fields) as [keyof Fields, string][])
            if (!fields[k] && v) fields[k] = v;
          changed.push({ ...original, fields });
        }
        changed.push({ ...row, decision: 'rejected', reason: `merged into row ${dup.position}` });
      } else {
        changed.push({
          ...row,
          decision: 'rejected',
          reason: `merged into ${dup.documentTitle} row ${dup.position}`,
        });
      }
      await saveStep(doc, changed, rows, actor, 'merged', { position: row.position, into: dup });
      return repo.rowsOf(database, doc.id);
    },

    async reject(doc: repo.DocumentRecord, reason: string, actor: Actor): Promise<DocumentDetail> {
      if (!['uploaded', 'mapped', 'validated', 'partlyConfirmed'].includes(doc.status))
        throw errors.conflict('INVALID_TRANSITION', `A ${doc.status} document cannot be rejected`);
      const c = (await repo.countsOf(database, [doc.id])).get(doc.id);
      if (c?.confirmed)
        throw errors.conflict('DOCUMENT_HAS_PARTICIPANTS', `${c.confirmed} row(s) are already participants`);
      await repo.updateDocument(database, doc.id, { status: 'rejected', rejectReason: reason });
      await history(doc.id, actor, 'rejected', { reason });
      await notify(await reload(doc.id), 'rejected');
      return detail(await reload(doc.id));
    },

    async close(doc: repo.DocumentRecord, actor: Actor): Promise<DocumentDetail> {
      if (doc.status !== 'confirmed')
        throw errors.conflict(
          'INVALID_TRANSITION',
          `Only a confirmed document can be closed (it is ${doc.status})`,
        );
      await repo.updateDocument(database, doc.id, { status: 'closed' });
      await history(doc.id, actor, 'closed');
      return detail(await reload(doc.id));
    },

    settleStatus,
    history,
    invalidateContext: deps.invalidateContext,
  };

  /** Stores changed rows as one undo step, writes the history, and validates again. */
  async function saveStep(
    doc: repo.DocumentRecord,
    changed: repo.RowRecord[],
    rows: Map<string, repo.RowRecord>,
    actor: Actor,
    action: string,
    detailOf: object,
  ) {
    await database.transaction(async (sql) => {
      await repo.pushEdit(
        sql,
        doc.id,
        changed.map((r) => rows.get(r.id)!),
      );
      await repo.saveRowStates(sql, changed);
      await history(doc.id, actor, action, detailOf, sql);
    });
    await revalidate(await reload(doc.id), actor);
  }
}
