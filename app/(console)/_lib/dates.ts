/*
 * The console's one date format: "24 Nov 2026, 23:12 UTC" — day, month, year, 24-hour time and
 * the time zone it is in (the reader's own zone, named). Every page shows instants through
 * these helpers; nothing else formats a date.
 */

/**
 * A formatter made on first use: building an `Intl.DateTimeFormat` is slow (the four here took
 * 75–105 ms at Lighthouse's 4× CPU slowdown when made as the module loaded, on every console page's
 * first paint; docs/PERFORMANCE.md, "Console (Lighthouse)"), and most pages need one or two.
 */
function lazyFormat(options: Intl.DateTimeFormatOptions): () => Intl.DateTimeFormat {
  let format: Intl.DateTimeFormat | undefined;
  return () => (format ??= new Intl.DateTimeFormat('en-GB', options));
}

const FORMAT = lazyFormat({
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
  timeZoneName: 'short',
});

/** An ISO instant as "24 Nov 2026, 23:12 UTC" (the reader's time zone, stated); `unset` ("—") when missing. */
export function formatDateTime(value: string | null | undefined, unset = '—'): string {
  if (!value) return unset;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return unset;
  return FORMAT().format(date);
}

const HOUR = lazyFormat({ hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
const DAY = lazyFormat({ day: 'numeric', month: 'short' });
const ZONE = lazyFormat({ timeZoneName: 'short' });

/** A chart's tick in the same style: "23:00" for an hour, "24 Nov" for a day (name the zone with `timeZoneLabel`). */
export function formatTick(value: string, unit: 'hour' | 'day'): string {
  return (unit === 'hour' ? HOUR : DAY)().format(new Date(value));
}

/** The reader's time zone as the formats above name it ("UTC", "GMT+1"). */
export function timeZoneLabel(at: Date = new Date()): string {
  return (
    ZONE()
      .formatToParts(at)
      .find((part) => part.type === 'timeZoneName')?.value ?? 'UTC'
  );
}

const UTC_DAY = lazyFormat({ day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
const UTC_DAY_TICK = lazyFormat({ day: 'numeric', month: 'short', timeZone: 'UTC' });

/**
 * A UTC calendar day of a report ("2026-11-24", the API's days are UTC) as "24 Nov 2026", or as a
 * chart's tick "24 Nov" — the day itself, not shifted into the reader's zone (where it could read as
 * the 23rd). Say "UTC days" beside them.
 */
export function formatDay(day: string, { tick = false } = {}): string {
  const date = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return day;
  return (tick ? UTC_DAY_TICK : UTC_DAY)().format(date);
}

/** The UTC day ("2026-11-24") an instant falls on. */
export function utcDay(at: string | number | Date): string {
  return new Date(at).toISOString().slice(0, 10);
}
