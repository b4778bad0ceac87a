import type { MyResults } from '@tempora/contracts';
import type { Database } from '../../db/database.ts';
import { errors } from '../../errors.ts';
import { setNameHidden } from '../participants/port.ts';
import { dropSnapshots } from '../results/port.ts';
import * as repo from './repository.ts';

export interface RunnerDeps {
  database: Database;
  /** The results' one reload command: the contexts whose public names changed. */
  reload: (db: string) => Promise<void>;
}

/**
 * The runner's space (issue 40): my results and my privacy. A hidden name reaches every public
 * view through the results' public projection (results/public-runner.ts): here the choice is
 * stored, the contexts' stored snapshots are dropped (none keeps the name) and the contexts reload
 * (every node forgets its state; open tables and cards refetch and get "Hidden runner").
 */
export function createRunnerService(deps: RunnerDeps) {
  const { database } = deps;

  async function republish(dbs: readonly string[]) {
    for (const db of dbs) {
      await dropSnapshots(database, db);
      await deps.reload(db);
    }
  }

  return {
    async myResults(accountId: string): Promise<MyResults> {
      const [hideAll, results] = await Promise.all([
        repo.hidesAll(database, accountId),
        repo.resultsOf(database, accountId),
      ]);
      return { hideAll, results };
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
  };
}

export type RunnerService = ReturnType<typeof createRunnerService>;
