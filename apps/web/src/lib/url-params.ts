/**
 * Reads a URL parameter (spec §9 `env`, `ui`, `lng`) from the search part, or from the hash's
 * query (hash routing puts them after `#/path?`).
 */
export function urlParam(
  name: string,
  location: Pick<Location, 'search' | 'hash'> = window.location,
): string | null {
  const fromSearch = new URLSearchParams(location.search).get(name);
  if (fromSearch) return fromSearch;
  const q = location.hash.indexOf('?');
  return q >= 0 ? new URLSearchParams(location.hash.slice(q + 1)).get(name) : null;
}
