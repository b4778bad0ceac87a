/**
 * The participants module's port (issue 30): the only file of `participants/` other server modules
 * import (Biome's `noRestrictedImports`, biome.json). The participants table is written here; others
 * ask through these functions.
 */

export { anonymiseParticipants } from './anonymise.ts';
export {
  type Entrant,
  enrolEntrant,
  entrantBibs,
  moveEntrant,
  updateEntrant,
  withdrawEntrant,
} from './entrants.ts';
export { assignPickupBib, bindPickupChip, type Holder } from './pickup-bibs.ts';
export { linkAccount, setBibRange, setNameHidden } from './repository.ts';
