/**
 * A timing point's name in the reader's language (issue 19: French complete). The API carries
 * both (`name` in English, `nameFr`), so that one cached answer serves both languages; a point
 * without a French name reads the same in French.
 */
export function pointName(point: { name: string; nameFr?: string | undefined }, lng: string): string {
  return lng.startsWith('fr') && point.nameFr ? point.nameFr : point.name;
}
