import type { DocumentStatus, Tariff } from '@tempora/contracts';
import type { Database, Sql } from '../../../db/database.ts';
import { errors } from '../../../errors.ts';
import type { Outbox } from '../../../identity/outbox.ts';
import * as repo from '../repository.ts';
import { fold } from '../validate.ts';

/**
 * What every part of the confirmation service shares (issue 30: the service split by
 * responsibility): its dependencies, the clock, a document's history and reloading, and the rules
 * on which documents may change. Each part (`views.ts`, `settlement.ts`, `validation.ts`,
 * `files.ts`, `edits.ts`, `lifecycle.ts`) is a factory taking this context; `../service.ts`
 * composes them.
 */

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

/** A sender's key: its mapping of columns is remembered under it. */
export const senderKey = (doc: { senderKind: string; senderName: string }) =>
  `${doc.senderKind}:${fold(doc.senderName)}`;
const todayUtc = () => new Date().toISOString().slice(0, 10);

/** 409 DOCUMENT_LOCKED once the document is rejected or closed. */
export function requireOpen(doc: repo.DocumentRecord) {
  if (!OPEN.includes(doc.status))
    throw errors.conflict('DOCUMENT_LOCKED', `The document is ${doc.status}: it can no longer change`);
}

/** `requireOpen`, and 409 DOCUMENT_NOT_MAPPED until the document has rows. */
export function requireRows(doc: repo.DocumentRecord) {
  requireOpen(doc);
  if (doc.rowsVersion === 0 || !Object.keys(doc.mapping).length)
    throw errors.conflict('DOCUMENT_NOT_MAPPED', 'Upload a file and map its columns first');
}

/** The dependencies as the parts use them, with a document's history and reloading. */
export function createContext(deps: ConfirmationDeps) {
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

  async function reload(id: string): Promise<repo.DocumentRecord> {
    const doc = await repo.findDocument(database, id);
    if (!doc) throw errors.notFound('DOCUMENT_NOT_FOUND', `No document '${id}'`);
    return doc;
  }

  return {
    database,
    outbox: deps.outbox,
    invalidateContext: deps.invalidateContext,
    publicUrl: deps.publicUrl,
    today,
    history,
    reload,
  };
}

export type ConfirmationContext = ReturnType<typeof createContext>;
