import { z } from 'zod';

type Schema = Record<string, unknown>;

/** Key order of the published schemas (the order the document had when it was written by hand). */
const ORDER = [
  'const',
  'anyOf',
  'type',
  'enum',
  'format',
  'minimum',
  'maximum',
  'default',
  'items',
  'description',
  'required',
  'properties',
];
const SAFE_INT = [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER];

/**
 * A zod schema as the JSON Schema (2020-12) of the OpenAPI document: zod's own conversion, in the
 * document's house form: no `$schema`; an integer without zod's safe-integer bounds; a date
 * without zod's pattern (`format: date` says it); a nullable as `anyOf` [it, null], not a type list; a literal as its `const` alone; an object
 * without declared properties (a loose object) as `{ type: object }`; keys in one order.
 */
export function jsonSchemaOf(schema: z.ZodType): Schema {
  const { $schema: _drop, ...out } = z.toJSONSchema(schema, { io: 'input', target: 'draft-2020-12' }) as Schema;
  return houseForm(out);
}

function houseForm(s: Schema): Schema {
  if (Array.isArray(s.type) && s.type.length === 2 && s.type.includes('null')) {
    const { description, type, ...rest } = s;
    const other = (type as string[]).find((t) => t !== 'null');
    return houseForm({
      anyOf: [{ type: other, ...rest }, { type: 'null' }],
      ...(description === undefined ? {} : { description }),
    });
  }
  const out: Schema = { ...s };
  if (out.type === 'integer' && out.minimum === SAFE_INT[0] && out.maximum === SAFE_INT[1]) {
    delete out.minimum;
    delete out.maximum;
  }
  if (out.format === 'date') delete out.pattern;
  if ('const' in out) delete out.type;
  if (out.type === 'object' && isEmpty(out.properties) && isEmpty(out.additionalProperties)) {
    delete out.properties;
    delete out.additionalProperties;
    delete out.required;
  }
  if (Array.isArray(out.anyOf)) out.anyOf = out.anyOf.map((x) => houseForm(x as Schema));
  if (out.items) out.items = houseForm(out.items as Schema);
  if (out.properties) {
    out.properties = Object.fromEntries(
      Object.entries(out.properties as Record<string, Schema>).map(([k, v]) => [k, houseForm(v)]),
    );
  }
  const rank = (k: string) => (ORDER.includes(k) ? ORDER.indexOf(k) : ORDER.length);
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => rank(a) - rank(b)));
}

const isEmpty = (v: unknown): boolean => typeof v === 'object' && v !== null && Object.keys(v).length === 0;
