/**
 * The ports device connectors may listen on (MYLAPS, ChronoTrack: the vendor's software connects
 * to Tempora), as the operator lists them in `DEVICE_LISTEN_PORTS` (`3097,61611-61620`): a user
 * must never open a port of their choosing on the server (issue 25).
 */
export type PortRanges = readonly (readonly [from: number, to: number])[];

/** Lowest port a device may listen on (below: privileged ports). */
export const MIN_LISTEN_PORT = 1024;

/** Parses `3097,61611-61620`; the reason when an entry is not a port or a range of ports. */
export function parsePortRanges(text: string): { ranges: PortRanges } | { error: string } {
  const ranges: [number, number][] = [];
  for (const entry of text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const m = /^(\d{1,5})(?:\s*-\s*(\d{1,5}))?$/.exec(entry);
    const from = Number(m?.[1]);
    const to = Number(m?.[2] ?? m?.[1]);
    if (!m || from < MIN_LISTEN_PORT || to > 65535 || from > to)
      return { error: `'${entry}' is not a port or a range of ports from ${MIN_LISTEN_PORT} to 65535` };
    ranges.push([from, to]);
  }
  return { ranges };
}

/** Whether a port is in the ranges. */
export function inPortRanges(ranges: PortRanges, port: number): boolean {
  return ranges.some(([from, to]) => port >= from && port <= to);
}

/** The ranges as the operator writes them (`3097, 61611-61620`), or `none` when empty. */
export function describePortRanges(ranges: PortRanges): string {
  if (!ranges.length) return 'none';
  return ranges.map(([from, to]) => (from === to ? String(from) : `${from}-${to}`)).join(', ');
}
