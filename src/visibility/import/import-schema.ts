/**
 * The scan import file (`scan:import`): its schema (zod) and validation with messages naming the
 * bad path, e.g. `scan.answers[3].platform`. The published JSON Schema is
 * docs/visibility-import.schema.json; keep both in step.
 */
import { z } from 'zod';
import { DomainError } from '../../common/errors/domain-error';
import { ErrorCode } from '../../common/errors/error-code';
import { normaliseUrl } from '../derive/domains';

export const LIMITS = {
  answers: 50_000,
  prompts: 5_000,
  competitors: 50,
  aliases: 5_000,
  domains: 20,
  citations: 200,
  textChars: 200_000,
  urlChars: 2048,
} as const;

export const ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;
export const PLATFORM = /^[a-z0-9][a-z0-9_.-]{0,39}$/;
export const DOMAIN =
  /^([Hh][Tt][Tt][Pp][Ss]?:\/\/)?([A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z0-9-]{2,63}\.?(\/.*)?$/;

const name = z.string().trim().min(1).max(200);
const isCalendarDate = (s: string): boolean => {
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
};

const brand = z.strictObject({
  name: name.describe('Name detected in answers (case-insensitive, on word boundaries).'),
  aliases: z.array(name).max(LIMITS.aliases).default([]).describe('Other spellings detected like the name.'),
  domains: z
    .array(z.string().max(253).regex(DOMAIN, 'expected a domain such as acme.com'))
    .max(LIMITS.domains)
    .default([])
    .describe(
      'Domains (and their subdomains) whose citations are owned (brand) or competitor citations. Never used as mention terms.',
    ),
});

const prompt = z
  .strictObject({
    id: z.string().regex(ID, 'expected 1-128 letters, digits, ".", "_", ":" or "-"'),
    text: z.string().trim().min(1).max(2000),
    tags: z.array(z.string().trim().min(1).max(64)).max(50).default([]),
    intent: z.string().trim().min(1).max(64).nullable().default(null),
    country: z
      .string()
      .regex(/^[A-Za-z]{2}$/, 'expected a two-letter country code')
      .transform((s) => s.toUpperCase())
      .nullable()
      .default(null),
    enabled: z.boolean().default(true),
  })
  .describe('A tracked prompt (buyer question).');

const citation = z
  .string()
  .max(LIMITS.urlChars)
  .refine((s) => normaliseUrl(s) !== null, 'expected an absolute http(s) URL');

const answer = z.strictObject({
  prompt_id: z.string().regex(ID, 'expected a prompt id'),
  platform: z.string().regex(PLATFORM, 'expected a platform identifier such as "chatgpt"'),
  model: z.string().trim().min(1).max(100).nullable().default(null),
  status: z
    .string()
    .regex(/^[a-z][a-z_]{0,31}$/, 'expected "ok" or a failure status such as "error"')
    .default('ok')
    .describe('"ok", or a failure status (error, timeout, refused, ...): failed answers count in no rate.'),
  // NUL cannot be stored in PostgreSQL text; it never carries meaning in an answer.
  text: z
    .string()
    .max(LIMITS.textChars)
    .default('')
    .transform((s) => s.replaceAll(String.fromCharCode(0), '')),
  citations: z.array(citation).max(LIMITS.citations).default([]).describe('Cited URLs, absolute http(s).'),
});

export const importFileSchema = z
  .strictObject({
    business: name,
    brand,
    competitors: z.array(brand).max(LIMITS.competitors).default([]),
    prompts: z.array(prompt).min(1).max(LIMITS.prompts),
    scan: z.strictObject({
      id: z
        .string()
        .regex(ID, 'expected 1-128 letters, digits, ".", "_", ":" or "-"')
        .describe(
          'Unique per workspace: re-importing it with identical content is a no-op, with other content a conflict.',
        ),
      date: z
        .string()
        .regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a date YYYY-MM-DD')
        .refine(isCalendarDate, 'not a calendar date'),
      platforms: z.array(z.string().regex(PLATFORM, 'expected a platform identifier such as "chatgpt"')).min(1).max(50),
      answers: z.array(answer).max(LIMITS.answers),
    }),
  })
  .describe(
    'One scan of a Beacon visibility project: project set-up and raw AI answers (npm run admin -- scan:import).',
  )
  .superRefine((file, ctx) => {
    const seen = new Set<string>();
    file.prompts.forEach((p, i) => {
      if (seen.has(p.id))
        ctx.addIssue({ code: 'custom', path: ['prompts', i, 'id'], message: `duplicate prompt id "${p.id}"` });
      seen.add(p.id);
    });
    const names = new Set<string>([file.brand.name.toLowerCase()]);
    file.competitors.forEach((c, i) => {
      if (names.has(c.name.toLowerCase())) {
        ctx.addIssue({ code: 'custom', path: ['competitors', i, 'name'], message: `duplicate brand name "${c.name}"` });
      }
      names.add(c.name.toLowerCase());
    });
    const platforms = new Set(file.scan.platforms);
    if (platforms.size !== file.scan.platforms.length) {
      ctx.addIssue({ code: 'custom', path: ['scan', 'platforms'], message: 'duplicate platform' });
    }
    file.scan.answers.forEach((a, i) => {
      if (!seen.has(a.prompt_id)) {
        ctx.addIssue({
          code: 'custom',
          path: ['scan', 'answers', i, 'prompt_id'],
          message: `unknown prompt "${a.prompt_id}"`,
        });
      }
      if (!platforms.has(a.platform)) {
        ctx.addIssue({
          code: 'custom',
          path: ['scan', 'answers', i, 'platform'],
          message: `"${a.platform}" is not one of scan.platforms`,
        });
      }
    });
  });

export type ImportFile = z.output<typeof importFileSchema>;
export type ImportBrand = ImportFile['brand'];

/** `['scan','answers',3,'platform']` -> `scan.answers[3].platform` */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : out ? `.${String(p)}` : String(p);
  return out || '(root)';
}

/** Validates a parsed import file; throws 400 bad_request naming the first bad path (and up to 20 in `problems`). */
export function parseImportFile(raw: unknown): ImportFile {
  const result = importFileSchema.safeParse(raw);
  if (result.success) return result.data;
  const problems = result.error.issues.slice(0, 20).map((i) => {
    const path = formatPath(i.path);
    const message = i.code === 'unrecognized_keys' ? `unknown field(s) ${i.keys.join(', ')}` : i.message;
    return { path, message };
  });
  const first = problems[0];
  throw new DomainError(ErrorCode.BadRequest, `Invalid import file: ${first.path}: ${first.message}.`, {
    field: first.path,
    problems,
  });
}

/** The JSON Schema of the import file, as published in docs/visibility-import.schema.json. */
export function importJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(importFileSchema, { io: 'input', unrepresentable: 'any' });
  return {
    $schema: schema.$schema,
    $id: 'https://beacon.example/schemas/visibility-import.schema.json',
    title: 'Beacon visibility scan import',
    ...schema,
    'x-cross-field-rules': [
      'prompts[].id are unique; brand and competitor names are unique (case-insensitive)',
      'scan.platforms has no duplicates',
      'every scan.answers[].prompt_id is one of prompts[].id',
      'every scan.answers[].platform is one of scan.platforms',
      'scan.date is a real calendar date',
    ],
  };
}
