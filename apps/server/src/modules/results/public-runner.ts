import { HIDDEN_RUNNER_NAME } from '@tempora/contracts';
import type { ParticipantRow } from './repository.ts';

/**
 * The public projection of a participant (issue 40, privacy by the runner's choice): the one place
 * a runner's hidden name is replaced. The live state is built from these rows (service/state.ts),
 * and every public view, export, feed, webhook, search, the map, the realtime frames and the
 * stored report snapshots are built from the live state, so none of them has the name to leak.
 * What ranks and categories are computed from (gender, age, birth date, category, status, bib,
 * chips) is kept: ranks are unchanged. The name, club and nationality (which could name the runner)
 * are left out. The organiser's participants grid and the runner's own space read the table itself.
 */
export function publicParticipant(row: ParticipantRow): ParticipantRow {
  if (!row.hidden) return row;
  const { club: _club, nationality: _nationality, ...kept } = row;
  return { ...kept, firstName: HIDDEN_RUNNER_NAME, lastName: '' };
}
