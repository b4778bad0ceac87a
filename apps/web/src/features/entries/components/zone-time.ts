/**
 * Wall-clock times in an event's time zone (the registration settings' opening, closing and price
 * dates are typed as the organiser reads them on the event's poster, whatever the browser's zone).
 */

/** How far the zone's wall clock is ahead of UTC at an instant, in ms. */
function offsetMs(at: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(at));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const wall = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return wall - Math.floor(at / 1000) * 1000;
}

/** An instant → the `datetime-local` value of the zone's wall clock (`2027-03-01T09:00`). */
export function toZoneInput(iso: string, timeZone: string): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return '';
  return new Date(at + offsetMs(at, timeZone)).toISOString().slice(0, 16);
}

/** A `datetime-local` value read on the zone's wall clock → the instant (ISO, UTC). */
export function fromZoneInput(value: string, timeZone: string): string {
  const wall = Date.parse(`${value.length === 16 ? `${value}:00` : value}Z`);
  if (Number.isNaN(wall)) return value;
  // Two passes: the offset at the guessed instant, then at the instant it gives (a DST change between).
  const first = wall - offsetMs(wall, timeZone);
  return new Date(wall - offsetMs(first, timeZone)).toISOString();
}
