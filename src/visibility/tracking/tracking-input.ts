/**
 * Reading the set-up's form fields and bulk rows into values, with messages in the page's words.
 * A problem is a `TrackingInputError` naming the field (the page links the message to it).
 */
import { DOMAIN, LIMITS } from '../import/import-schema';
import {
  PromptInput,
  Schedule,
  SCHEDULES,
  TRACKABLE_PLATFORMS,
  TrackablePlatform,
  TRACKING_LIMITS,
} from './tracking.types';

export class TrackingInputError extends Error {
  constructor(
    message: string,
    readonly field: string,
  ) {
    super(message);
  }
}

/** Items of a list typed one per line or separated by commas; trimmed, empty ones and repeats dropped. */
export function listField(value: string, separators = /[\n,]/): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of value.split(separators)) {
    const v = raw.trim();
    if (v && !seen.has(v.toLowerCase())) {
      seen.add(v.toLowerCase());
      out.push(v);
    }
  }
  return out;
}

export function nameField(value: string, field: string, what: string): string {
  const v = value.trim();
  if (!v) throw new TrackingInputError(`Enter the ${what}.`, field);
  if (v.length > 200) throw new TrackingInputError(`The ${what} is longer than 200 characters.`, field);
  return v;
}

export function aliasesField(value: string, field: string): string[] {
  const list = listField(value);
  if (list.length > TRACKING_LIMITS.aliases)
    throw new TrackingInputError(`At most ${TRACKING_LIMITS.aliases} other spellings.`, field);
  const long = list.find((a) => a.length > 200);
  if (long) throw new TrackingInputError(`"${long.slice(0, 40)}…" is longer than 200 characters.`, field);
  return list;
}

export function domainsField(value: string, field: string): string[] {
  const list = listField(value, /[\s,]+/);
  if (list.length > LIMITS.domains) throw new TrackingInputError(`At most ${LIMITS.domains} domains.`, field);
  const bad = list.find((d) => d.length > 253 || !DOMAIN.test(d));
  if (bad) throw new TrackingInputError(`"${bad}" is not a domain such as acme.com.`, field);
  return list;
}

export function intField(value: string, field: string, what: string, min: number, max: number): number {
  const n = Number(value.trim());
  if (!/^\d+$/.test(value.trim()) || n < min || n > max)
    throw new TrackingInputError(`The ${what} must be a whole number from ${min} to ${max}.`, field);
  return n;
}

export function moneyField(value: string, field: string, what: string, max: number): number {
  const v = value.trim().replace(/^\$/, '');
  const n = Number(v);
  if (!/^\d+(\.\d{1,2})?$/.test(v) || n <= 0 || n > max)
    throw new TrackingInputError(
      `The ${what} must be an amount in US dollars above 0 and at most ${max}, e.g. 25 or 12.50.`,
      field,
    );
  return n;
}

export function scheduleField(value: string): Schedule {
  const s = SCHEDULES.find((x) => x === value);
  if (!s) throw new TrackingInputError('Choose weekly, daily or manual only.', 'schedule');
  return s;
}

export function platformsField(values: string[]): TrackablePlatform[] {
  const out: TrackablePlatform[] = [];
  for (const v of values) {
    const p = TRACKABLE_PLATFORMS.find((x) => x === v);
    if (!p)
      throw new TrackingInputError(`"${v}" is not a platform Beacon can ask.`, `platform-${TRACKABLE_PLATFORMS[0]}`);
    if (!out.includes(p)) out.push(p);
  }
  return out;
}

const YES = ['true', 'yes', 'y', '1', 'on', 'enabled'];
const NO = ['false', 'no', 'n', '0', 'off', 'disabled'];

/** One prompt's fields; `where` prefixes messages ("Row 12: ") and `prefix` the field ids. */
export function promptFields(
  f: { text: string; tags?: string; intent?: string; country?: string; enabled?: string },
  where = '',
  prefix = '',
): PromptInput {
  const text = f.text.replace(/\s+/g, ' ').trim();
  if (!text) throw new TrackingInputError(`${where}the prompt text is empty.`, `${prefix}text`);
  if (text.length > 2000)
    throw new TrackingInputError(`${where}the prompt text is longer than 2,000 characters.`, `${prefix}text`);
  const tags = listField(f.tags ?? '', /[;,|]/);
  if (tags.length > 50) throw new TrackingInputError(`${where}more than 50 tags.`, `${prefix}tags`);
  const longTag = tags.find((t) => t.length > 64);
  if (longTag)
    throw new TrackingInputError(
      `${where}the tag "${longTag.slice(0, 30)}…" is longer than 64 characters.`,
      `${prefix}tags`,
    );
  const intent = (f.intent ?? '').trim() || null;
  if (intent && intent.length > 64)
    throw new TrackingInputError(`${where}the intent is longer than 64 characters.`, `${prefix}intent`);
  const c = (f.country ?? '').trim();
  if (c && !/^[A-Za-z]{2}$/.test(c))
    throw new TrackingInputError(
      `${where}the country "${c}" is not a two-letter code such as US or DE.`,
      `${prefix}country`,
    );
  const e = (f.enabled ?? '').trim().toLowerCase();
  if (e && !YES.includes(e) && !NO.includes(e))
    throw new TrackingInputError(`${where}enabled "${f.enabled}" is not yes or no.`, `${prefix}enabled`);
  return { text, tags, intent, country: c ? c.toUpperCase() : null, enabled: !NO.includes(e) };
}
