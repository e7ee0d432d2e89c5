/*
 * Quiet hours (acceptable hours): an account sends between `start` and `end` of the RECIPIENT's local
 * day. Outside them a message waits for the next opening. Pure maths on IANA zones through Intl, so the
 * server (queueing) and the web app (settings, previews) agree.
 *
 * - `start` is inclusive, `end` exclusive, at minute precision: with 08:00-21:00, 20:59 is open and 21:00
 *   is not.
 * - `start` after `end` wraps midnight (22:00-06:00 is open at night); `start` equal to `end` is open all day.
 * - Wall-clock rules on days the clocks change: a start that does not exist (spring forward, 02:30 in New
 *   York) opens at the first instant after the gap (03:00); a start that happens twice (fall back, 01:30)
 *   opens at the first of them that is still ahead.
 */

/** 'HH:MM', 00:00 to 23:59. */
export const TIME_OF_DAY_PATTERN = /^([01]\d|2[0-3]):[0-5]\d$/;

export interface QuietHoursWindow {
  /** 'HH:MM', local to the recipient: the first minute messages may go. */
  readonly start: string;
  /** 'HH:MM', local to the recipient: the first minute they may not. */
  readonly end: string;
}

export interface QuietHoursSetting extends QuietHoursWindow {
  readonly enabled: boolean;
}

/** New accounts: 08:00 to 21:00 in the recipient's time, on. */
export const DEFAULT_QUIET_HOURS: QuietHoursSetting = { enabled: true, start: '08:00', end: '21:00' };

const MINUTE = 60_000;
const DAY = 86_400_000;

/** 'HH:MM' → minutes since midnight; throws on anything else. */
export function minutesOfDay(time: string): number {
  if (!TIME_OF_DAY_PATTERN.test(time)) throw new RangeError(`not a time of day (HH:MM): ${time}`);
  return Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, formatter);
  }
  return formatter;
}

/** Whether Intl knows the zone (an IANA name or one of its aliases). */
export function isValidTimeZone(zone: string): boolean {
  try {
    formatterFor(zone);
    return true;
  } catch {
    return false;
  }
}

/**
 * The local wall-clock time of an instant, as milliseconds of a UTC date with the same fields (so wall times
 * compare and subtract as numbers). Second precision: zones change their offsets on whole seconds.
 */
function wallClock(instantMs: number, zone: string): number {
  const fields = { year: 0, month: 1, day: 1, hour: 0, minute: 0, second: 0 };
  for (const part of formatterFor(zone).formatToParts(instantMs)) {
    if (Object.hasOwn(fields, part.type)) fields[part.type as keyof typeof fields] = Number(part.value);
  }
  return Date.UTC(fields.year, fields.month - 1, fields.day, fields.hour, fields.minute, fields.second);
}

/** Whether `minute` (of the day) falls in the window [start, end), wrapping midnight when start > end. */
function inWindow(minute: number, start: number, end: number): boolean {
  if (start === end) return true;
  return start < end ? minute >= start && minute < end : minute >= start || minute < end;
}

const minuteOfWall = (wall: number): number => Math.floor((((wall % DAY) + DAY) % DAY) / MINUTE);

/** The local time of day of `instant` in `zone`, 'HH:MM'. */
export function localTimeOfDay(instant: Date, zone: string): string {
  const minute = minuteOfWall(wallClock(instant.getTime(), zone));
  return `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
}

/** Whether messages may go at `instant` to someone in `zone`. */
export function isWithinHours(instant: Date, zone: string, window: QuietHoursWindow): boolean {
  return inWindow(minuteOfWall(wallClock(instant.getTime(), zone)), minutesOfDay(window.start), minutesOfDay(window.end));
}

/** The offsets (wall − instant) the zone uses around a wall time: both sides of any change near it. */
function offsetsAround(wall: number, zone: string): number[] {
  const offsets = new Set<number>();
  for (const probe of [wall - DAY, wall, wall + DAY]) {
    const instant = Math.floor(probe / 1000) * 1000;
    offsets.add(wallClock(instant, zone) - instant);
  }
  return [...offsets];
}

/**
 * The first instant whose local time is `wall` or, when `wall` falls in a spring-forward gap and never
 * happens, the first instant after the gap; only instants after `after` count.
 */
function firstInstantAt(wall: number, zone: string, after: number): number | null {
  const offsets = offsetsAround(wall, zone);
  const exact = offsets
    .map((offset) => wall - offset)
    .filter((instant) => instant > after && wallClock(instant, zone) === wall)
    .sort((a, b) => a - b);
  if (exact[0] !== undefined) return exact[0];
  // A gap: between wall − (later offset) and wall − (earlier offset) the clock jumps past `wall`. Find the
  // first second whose local time has passed it.
  let low = wall - Math.max(...offsets);
  let high = wall - Math.min(...offsets);
  if (low >= high || wallClock(high, zone) < wall) return null;
  while (high - low > 1000) {
    const middle = low + Math.floor((high - low) / 2000) * 1000;
    if (wallClock(middle, zone) >= wall) high = middle;
    else low = middle;
  }
  return high > after ? high : null;
}

/**
 * When a message queued at `instant` may go to someone in `zone`: `instant` itself when it is within the
 * window, else the next local `start` (see the rules at the top of this file).
 */
export function nextOpening(instant: Date, zone: string, window: QuietHoursWindow): Date {
  if (isWithinHours(instant, zone, window)) return instant;
  const start = minutesOfDay(window.start);
  const now = instant.getTime();
  const wall = wallClock(now, zone);
  // Outside the window the next start is today when the local time is before it, else tomorrow.
  let day = wall - (((wall % DAY) + DAY) % DAY) + (minuteOfWall(wall) < start ? 0 : DAY);
  // A start lost in a gap can land past the end of a short window: then the next day's start.
  for (let attempt = 0; attempt < 3; attempt++, day += DAY) {
    const opening = firstInstantAt(day + start * MINUTE, zone, now);
    if (opening !== null && isWithinHours(new Date(opening), zone, window)) return new Date(opening);
  }
  throw new Error(`no opening of ${window.start}-${window.end} in ${zone} after ${instant.toISOString()}`);
}
