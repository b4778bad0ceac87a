import type { Database } from '../../../db/database.ts';
import type { EntriesService } from '../../entries/port.ts';
import type { PaymentsService } from '../../payments/port.ts';
import type { Results } from '../../results/port.ts';

/**
 * What the parts of the pickup service share (issue 39): the database, the entries service (late
 * entries are its manual entries, paid on site), the payments service (money received for an
 * order), the results' one reload command (a bib or chip given changes who reads are of), and the
 * desk's one status path (DNS). Parts: `ops.ts` (a volunteer's operations), `views.ts` (list,
 * card, conflicts), `dashboard.ts` (figures, DNS), `../pdf.ts` (the paper list).
 */
export interface PickupDeps {
  database: Database;
  entries: EntriesService;
  payments: PaymentsService;
  results: Pick<Results, 'reload'>;
  /** The passings desk's status path, for many runners at once (`app.raceday.service.setStatuses`). */
  setStatuses: (
    db: string,
    raceId: string,
    bibs: readonly string[],
    status: 'DNS',
    reason: string,
    actor: string | null,
  ) => Promise<{ changed: string[] }>;
  now?: () => Date;
}

/** Who did it: the signed-in volunteer or organiser. */
export interface PickupActor {
  sub: string;
  email: string;
}
