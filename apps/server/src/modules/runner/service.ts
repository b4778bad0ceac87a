import crypto from 'node:crypto';
import type { MyResults, PublicRunner } from '@tempora/contracts';
import type { Database } from '../../db/database.ts';
import { errors } from '../../errors.ts';
import type { Mail } from '../../identity/outbox.ts';
import type { EntriesService } from '../entries/port.ts';
import { setNameHidden } from '../participants/port.ts';
import { dropSnapshots } from '../results/port.ts';
import { createClaims } from './claims.ts';
import { collectMyData, myDataPdf } from './data-export.ts';
import { createErasure } from './erasure.ts';
import { type CardLookup, personalBests, withResults } from './my-results.ts';
import * as repo from './repository.ts';
import { createRetention } from './retention.ts';

export interface RunnerDeps {
  database: Database;
  /** The results' one reload command: the contexts whose public names changed. */
  reload: (db: string) => Promise<void>;
  /** A runner's live card (times, ranks, splits, prediction). */
  card: CardLookup;
  send: (mail: Mail) => Promise<void>;
  publicUrl: string;
  /** The entries module's service: "Delete my account" cancels entries through its own cancel. */
  entries: EntriesService;
  /** The clock of the retention job (tests move it). */
  now?: () => Date;
}

/** A short link's slug: 8 letters and digits without look-alikes (32^8 ≈ 10^12). */
function newSlug(): string {
  const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789';
  return Array.from(crypto.randomBytes(8), (b) => alphabet[b % alphabet.length]).join('');
}

/**
 * The runner's space (issue 40): my results and my privacy, claims, the public runner page. A
 * hidden name reaches every public view through the results' public projection
 * (results/public-runner.ts): here the choice is stored, the contexts' stored snapshots are
 * dropped (none keeps the name) and the contexts reload (every node forgets its state; open
 * tables and cards refetch and get "Hidden runner").
 */
export function createRunnerService(deps: RunnerDeps) {
  const { database } = deps;

  async function republish(dbs: readonly string[]) {
    for (const db of dbs) {
      await dropSnapshots(database, db);
      await deps.reload(db);
      // A snapshot of the former state still being written when it was dropped lands in between:
      // dropped again once every node has forgotten that state (no writer of it is left).
      await dropSnapshots(database, db);
    }
  }

  const claims = createClaims({
    database,
    send: deps.send,
    publicUrl: deps.publicUrl,
    changed: (db) => republish([db]),
  });

  async function resultsOf(accountId: string, published = false) {
    const rows = await repo.resultsOf(database, accountId, published);
    const results = [];
    // One at a time: each may load a context's state.
    for (const row of rows) results.push(await withResults(row, deps.card));
    return results;
  }

  const erasure = createErasure({ database, entries: deps.entries, republish, now: deps.now });
  const retention = createRetention({ database, republish, now: deps.now ?? (() => new Date()) });

  return {
    claims,
    erasure,
    retention,

    /** "Download my data" (GDPR article 15): JSON. */
    async myData(accountId: string) {
      return collectMyData(database, accountId, await resultsOf(accountId));
    },

    /** The same as a readable PDF, in the reader's language. */
    async myDataPdf(accountId: string, lng: 'en' | 'fr') {
      return myDataPdf(await collectMyData(database, accountId, await resultsOf(accountId)), lng);
    },

    async myResults(accountId: string): Promise<MyResults> {
      const account = await repo.findAccount(database, accountId);
      if (!account) throw errors.unauthorized();
      const results = await resultsOf(accountId);
      return {
        hideAll: account.hideResults,
        publicSlug: account.publicProfile ? account.publicSlug : null,
        results,
        personalBests: personalBests(results),
      };
    },

    /** Hides or shows my name on one result of mine (404 when it is not mine). */
    async setResultHidden(accountId: string, participantId: string, hidden: boolean): Promise<void> {
      const mine = await repo.resultsOf(database, accountId);
      if (!mine.some((r) => r.participantId === participantId)) {
        throw errors.notFound('RESULT_NOT_FOUND', 'No such result of yours');
      }
      await republish(await setNameHidden(database, accountId, [participantId], hidden));
    },

    /** My choice for every result, those of mine now and those linked later. */
    async setHideAll(accountId: string, hideAll: boolean): Promise<void> {
      const dbs = await database.transaction(async (tx) => {
        await repo.setHideAll(tx, accountId, hideAll);
        return setNameHidden(tx, accountId, null, hideAll);
      });
      await republish(dbs);
    },

    /** Turns my public page on (its slug kept for good, so a shared link stays) or off. */
    async setPublicPage(accountId: string, enabled: boolean): Promise<string | null> {
      return repo.setPublicPage(database, accountId, enabled, newSlug());
    },

    /** The public runner page: only when its runner turned it on, only results not hidden. */
    async publicRunner(slug: string): Promise<PublicRunner> {
      const account = await repo.findAccountBySlug(database, slug);
      if (!account) throw errors.notFound('RUNNER_NOT_FOUND', 'No such runner page');
      // Published events only (issue 42): a runner's page is public.
      const results = (await resultsOf(account.sub, true)).filter((r) => !r.hidden);
      return {
        name: `${account.firstName} ${account.lastName}`.trim(),
        results: results.map((r) => ({
          eventId: r.eventId,
          eventName: r.eventName,
          raceName: r.raceName,
          date: r.date,
          distanceM: r.distanceM,
          status: r.status,
          netMs: r.netMs,
          rankOverall: r.rankOverall,
          trackingKey: r.trackingKey,
        })),
        personalBests: personalBests(results).map(({ participantId: _id, ...best }) => best),
      };
    },
  };
}

export type RunnerService = ReturnType<typeof createRunnerService>;
