import type { ArgumentMetadata } from '@nestjs/common';
import { createValidationPipe } from '../common/config/validation';

const pipe = createValidationPipe();

/**
 * A page's query through the API's own DTO and validation (same filters, same limits, same
 * messages). Empty fields of a GET form are dropped first: "Any" means no filter. `extra` names
 * page-only parameters removed before validation.
 */
export async function apiQuery<T extends object>(dto: new () => T, raw: Record<string, unknown>, extra: string[] = []): Promise<T> {
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
