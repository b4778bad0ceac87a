/**
 * The exports module's port (issue 30): the only file of `exports/` other server modules import
 * (Biome's `noRestrictedImports`, biome.json). A table of text written as CSV (streamed) or as
 * an XLSX workbook made on a worker thread — what the participants import's refused rows use.
 */
export { csvChunks } from './csv.ts';
/** Printed lists (issue 39: the pickup list's paper fallback) through the result lists' PDF writer. */
export { pdfListStream, xlsxStream } from './offload.ts';
export type { ListMeta, ListSection } from './pdf-list.ts';
export { longDate } from './service.ts';
export type { TextTable } from './table-text.ts';
