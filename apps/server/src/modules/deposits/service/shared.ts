import crypto from 'node:crypto';
import type { Database, Sql } from '../../../db/database.ts';
import { errors } from '../../../errors.ts';
import type { Outbox } from '../../../identity/outbox.ts';
import type { Results } from '../../results/port.ts';
import type { DepositRole } from '../access.ts';
import * as repo from '../repository.ts';

/**
 * What every part of the deposits service shares (issue 30: the service split by
 * responsibility): its dependencies, the clock, public links, and the deadline and state rules
 * that several parts check. Each part (`offers.ts`, `detail.ts`, `entries.ts`,
 * `substitutions.ts`, `submission.ts`, `lifecycle.ts`, `messages.ts`, `ranking.ts`) is a factory
 * taking this context; `../service.ts` composes them.
 */

export interface DepositsDeps {
  database: Database;
  outbox: Outbox;
  results: Results;
  publicUrl: string | undefined;
  now?: () => Date;
}

/** Who is acting, as the service needs it. */
export interface Actor {
  sub: string;
  role: DepositRole;
}

/** The dependencies as the parts use them: the clock defaulted, links built. */
export interface DepositsContext {
  database: Database;
  outbox: Outbox;
  results: Results;
  now: () => Date;
  /** A link into the web app (hash routes) under the public URL. */
  link: (path: string) => string;
}

/** The parts' context from the service's dependencies. */
export function createContext(deps: DepositsDeps): DepositsContext {
  return {
    database: deps.database,
    outbox: deps.outbox,
    results: deps.results,
    now: deps.now ?? (() => new Date()),
    link: (path: string) => `${(deps.publicUrl ?? '').replace(/\/+$/, '')}/#${path}`,
  };
}

const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
/** A join code: 8 characters without look-alikes (0/O, 1/I), 40 bits. */
export function joinCode(): string {
  return [...crypto.randomBytes(8)].map((b) => ALPHABET[b % ALPHABET.length]).join('');
}

/** The event's deposit settings (fees, capacities, deadline, bank details), if any. */
export async function settingsOf(sql: Sql, eventId: string) {
  return repo.findSettings(sql, eventId);
}

/** The entry deadline: the organiser's, else the start of the event's first day (UTC). */
export function deadlineOf(settings: repo.SettingsRow | null, deposit: { eventStart: string }): Date {
  return new Date(settings?.entryDeadline ?? `${deposit.eventStart}T00:00:00Z`);
}

/** Past the deadline, only staff still change entries. */
export function requireBeforeDeadline(now: () => Date, deadline: Date, role: DepositRole) {
  if (role !== 'staff' && now() >= deadline) {
    throw errors.conflict('DEADLINE_PASSED', `Entries locked since ${deadline.toISOString()}`);
  }
}

/** 409 DEPOSIT_STATE unless the deposit is in one of `states`. */
export function requireState(deposit: repo.DepositRow, states: readonly string[]) {
  if (!states.includes(deposit.state)) {
    throw errors.conflict('DEPOSIT_STATE', `Not possible while the deposit is ${deposit.state}`);
  }
}

/** The plain text of a mail as minimal HTML (escaped, line breaks kept). */
export function htmlOf(text: string): string {
  const escaped = text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return `<p>${escaped.replace(/\n/g, '<br>')}</p>`;
}
