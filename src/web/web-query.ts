import type { ArgumentMetadata } from '@nestjs/common';
import { createValidationPipe } from '../common/config/validation';
import { DomainError } from '../common/errors/domain-error';
import { ErrorCode } from '../common/errors/error-code';

const pipe = createValidationPipe();

/**
 * A page's query through the API's own DTO and validation (same filters, same limits, same
 * messages). Empty fields of a GET form are dropped first: "Any" means no filter. `extra` names
 * page-only parameters removed before validation.
 */
export async function apiQuery<T extends object>(
  dto: new () => T,
  raw: Record<string, unknown>,
  extra: string[] = [],
): Promise<T> {
  const cleaned: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(raw)) if (v !== '' && !extra.includes(k)) cleaned[k] = v;
  const meta: ArgumentMetadata = { type: 'query', metatype: dto, data: undefined };
  return (await pipe.transform(cleaned, meta)) as T;
}

/** Non-empty string query values, to keep filters in links. */
export function keptParams(raw: Record<string, unknown>): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(raw)) if (typeof v === 'string' && v !== '') out[k] = v;
  return out;
}

/** What to do about a refused filter, in the page's words, by parameter (others: the generic advice). */
const ADVICE: Record<string, string> = {
  limit: 'choose how many to show from the list',
  cursor: 'this page link is out of date: start again from the first page',
  country: 'enter a two-letter country code, such as US',
  platform: 'choose a platform from the list',
  competitor: 'choose a competitor from the list',
  category: 'choose a category from the list',
  brand_status: 'choose a status from the list',
  enabled: 'choose yes or no',
  mentioned: 'choose yes or no',
};

/**
 * A filter the API refused (its 400 bad_request naming the parameter) as a problem to show on the
 * page's form, in the page's words: "Country (2 letters): enter a two-letter country code, such as
 * US". `labels` are the form's labels by parameter. Any other error: null (the caller rethrows).
 */
export function filterProblem(e: unknown, labels: Record<string, string>): { field: string; message: string } | null {
  if (!(e instanceof DomainError) || e.code !== ErrorCode.BadRequest) return null;
  const field = typeof e.details.field === 'string' ? e.details.field : '';
  const label = labels[field];
  if (field === 'cursor') return { field, message: `Next page: ${ADVICE.cursor}.` };
  if (!label)
    return {
      field,
      message: `The link has a filter this page does not have${field ? ` (${field})` : ''}: use the filters below.`,
    };
  return { field, message: `${label}: ${ADVICE[field] ?? 'this value cannot be used: change or clear it'}.` };
}
