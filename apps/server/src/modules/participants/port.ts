/**
 * The participants module's port (issue 30): the only file of `participants/` other server modules
 * import (Biome's `noRestrictedImports`, biome.json). The participants table is written here; others
 * ask through these functions.
 */
export { setBibRange, setNameHidden } from './repository.ts';
