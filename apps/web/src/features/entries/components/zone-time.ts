import { zonedParts, zonedTimeToUtc } from '@tempora/domain';

/**
 * Wall-clock times in an event's time zone (the registration settings' opening, closing and price
 * dates are typed as the organiser reads them on the event's poster, whatever the browser's zone).
 * The zone arithmetic is the domain's (`zonedParts`, `zonedTimeToUtc`, over `zoneOffsetMs`); these
 * only adapt it to the form's `YYYY-MM-DDTHH:mm` values.
 */

/** An instant → the form's value of the zone's wall clock (`2027-03-01T09:00`). */
export function toZoneInput(iso: string, timeZone: string): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return '';
  const { date, time } = zonedParts(at, timeZone);
  return `${date}T${time.slice(0, 5)}`;
}

/** A form's value read on the zone's wall clock → the instant (ISO, UTC); the value itself when not one. */
export function fromZoneInput(value: string, timeZone: string): string {
  const [date = '', time = ''] = value.split('T');
  const at = zonedTimeToUtc(date, time, timeZone);
  return at === null ? value : new Date(at).toISOString();
}
