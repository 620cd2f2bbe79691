import { Injectable } from '@nestjs/common';

/**
 * The clock of quota days (UTC). Injectable so tests can move it across 00:00 UTC:
 * `app.get(QuotaClock).set(() => new Date('2030-01-01T23:59:59Z'))`.
 */
@Injectable()
export class QuotaClock {
  private source: () => Date = () => new Date();

  now(): Date {
    return this.source();
  }

  /** Replaces the time source (tests); `undefined` restores the real clock. */
  set(source?: () => Date): void {
    this.source = source ?? (() => new Date());
  }
}

/** "YYYY-MM-DD" of the UTC day of `at`. */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** The next 00:00 UTC after `at`. */
export function nextUtcMidnight(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() + 1));
}
