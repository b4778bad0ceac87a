/** Whether `zone` is an IANA time zone this runtime knows (e.g. `Europe/Brussels`). */
export function isTimeZone(zone: string): boolean {
  if (!zone || zone.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(zone, f);
  }
  return f;
}

/** The wall-clock date and time of an instant in a time zone. */
export function zonedParts(ms: number, zone: string): { date: string; time: string } {
  const parts = Object.fromEntries(
    formatter(zone)
      .formatToParts(new Date(ms))
      .map((p) => [p.type, p.value]),
  );
  const millis = ((ms % 1000) + 1000) % 1000;
  const time = `${parts.hour}:${parts.minute}:${parts.second}${millis ? `.${String(millis).padStart(3, '0')}` : ''}`;
  return { date: `${parts.year}-${parts.month}-${parts.day}`, time };
}

/** Offset of a time zone from UTC at an instant, in milliseconds (Brussels in summer: +7,200,000). */
export function zoneOffsetMs(ms: number, zone: string): number {
  const { date, time } = zonedParts(Math.floor(ms / 1000) * 1000, zone);
  const asUtc = Date.parse(`${date}T${time}Z`);
  return asUtc - Math.floor(ms / 1000) * 1000;
}

const TIME = /^(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?$/;

/**
 * The instant a wall-clock date and time (`YYYY-MM-DD`, `HH:MM[:SS[.mmm]]`) names in a time
 * zone, or null when either is malformed. In the hour a clock jumps forward the time does not
 * exist and is read with the offset before the jump; in the hour repeated when it goes back the
 * first (summer) one is taken — race times never fall there in practice.
 */
export function zonedTimeToUtc(date: string, time: string, zone: string): number | null {
  const m = TIME.exec(time);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || !m) return null;
  const [h, min, s] = [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)];
  if (h > 23 || min > 59 || s > 59) return null;
  const ms = Number((m[4] ?? '0').padEnd(3, '0'));
  const wall = Date.parse(`${date}T${m[1]}:${m[2]}:${String(s).padStart(2, '0')}Z`);
  if (Number.isNaN(wall)) return null;
  const guess = wall - zoneOffsetMs(wall, zone);
  const second = wall - zoneOffsetMs(guess, zone);
  return second + ms;
}
