/** An all-day event on race day (RFC 5545), with the entry page's link. */
export function calendar(
  entry: { code: string; eventName: string; raceName: string; raceDate: string },
  publicUrl: string,
): string {
  const day = entry.raceDate.replace(/-/g, '');
  const next = new Date(Date.parse(`${entry.raceDate}T00:00:00Z`) + 86_400_000)
    .toISOString()
    .slice(0, 10)
    .replace(/-/g, '');
  const esc = (s: string) => s.replace(/[\\;,]/g, (c) => `\\${c}`).replace(/\n/g, '\\n');
  return [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Tempora//Entries//EN',
    'BEGIN:VEVENT',
    `UID:${entry.code}@tempora`,
    `DTSTAMP:${new Date().toISOString().replace(/[-:]/g, '').slice(0, 15)}Z`,
    `DTSTART;VALUE=DATE:${day}`,
    `DTEND;VALUE=DATE:${next}`,
    `SUMMARY:${esc(`${entry.eventName} — ${entry.raceName}`)}`,
    `DESCRIPTION:${esc(`${entry.code}`)}`,
    `URL:${publicUrl.replace(/\/+$/, '')}/#/entries/entry/${entry.code}`,
    'END:VEVENT',
    'END:VCALENDAR',
    '',
  ].join('\r\n');
}
