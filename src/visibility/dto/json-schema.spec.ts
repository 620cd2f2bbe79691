import { z } from 'zod';
import { jsonSchemaOf } from './json-schema';

describe('jsonSchemaOf: zod in the house form of the OpenAPI document', () => {
  it('writes integers, dates, literals, nullables and loose objects as the document always had them', () => {
    const s = z
      .object({
        ok: z.literal(true),
        n: z.int(),
        d: z.iso.date(),
        s: z.string().nullable(),
        r: z.number().min(0).max(100).nullable().describe('percent'),
        o: z.looseObject({}),
      })
      .describe('A body.');
    expect(JSON.stringify(jsonSchemaOf(s))).toBe(
      JSON.stringify({
        type: 'object',
        description: 'A body.',
        required: ['ok', 'n', 'd', 's', 'r', 'o'],
        properties: {
          ok: { const: true },
          n: { type: 'integer' },
          d: { type: 'string', format: 'date' },
          s: { anyOf: [{ type: 'string' }, { type: 'null' }] },
          r: { anyOf: [{ type: 'number', minimum: 0, maximum: 100 }, { type: 'null' }], description: 'percent' },
          o: { type: 'object' },
        },
      }),
    );
  });
});
