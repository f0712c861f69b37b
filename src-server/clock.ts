/**
 * The server's one source of "now" for deadlines, reminders and digests (issue 28): tests and the
 * replay of an office's week move it instead of sleeping; everywhere else it is the system's clock.
 */

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock a test moves by hand. */
export class MovableClock implements Clock {
  private at: number;
  constructor(start: Date | string) {
    this.at = new Date(start).getTime();
  }
  now(): Date {
    return new Date(this.at);
  }
  set(to: Date | string): void {
    this.at = new Date(to).getTime();
  }
  advance(ms: number): void {
    this.at += ms;
  }
}

/** The calendar day (YYYY-MM-DD) an instant falls on in a time zone. */
export function dayIn(timeZone: string, at: Date): string {
  // en-CA writes dates as YYYY-MM-DD; the Gregorian calendar and Latin digits are asked for explicitly.
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    calendar: 'gregory',
    numberingSystem: 'latn',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(at);
}

/** The hour (0–23) an instant falls on in a time zone. */
export function hourIn(timeZone: string, at: Date): number {
  return Number(
    new Intl.DateTimeFormat('en-GB', {
      timeZone,
      hour: '2-digit',
      hourCycle: 'h23',
      numberingSystem: 'latn',
    }).format(at),
  );
}
