import { scan2 } from '../../../test/visibility/fixtures';
import { DomainError } from '../../common/errors/domain-error';
import { formatPath, importJsonSchema, parseImportFile } from './import-schema';

const clone = (): typeof scan2 => JSON.parse(JSON.stringify(scan2));
const problem = (raw: unknown): { field: string; message: string } => {
  try {
    parseImportFile(raw);
  } catch (e) {
    if (e instanceof DomainError) return { field: e.details.field as string, message: e.message };
    throw e;
  }
  throw new Error('expected a validation error');
};

describe('import file validation', () => {
  it('accepts the documented example and applies defaults', () => {
    const f = parseImportFile(clone());
    expect(f.prompts[0].country).toBe('US'); // upper-cased
    expect(f.prompts[2].country).toBeNull();
    expect(f.competitors[1].domains).toEqual([]);
  });

  it('names the bad path: scan.answers[3].platform', () => {
    const f = clone();
    (f.scan.answers[3] as { platform: string }).platform = 'myspace';
    expect(problem(f)).toEqual({
      field: 'scan.answers[3].platform',
      message: 'Invalid import file: scan.answers[3].platform: "myspace" is not one of scan.platforms.',
    });
  });

  it('names wrong types, unknown prompts, bad URLs, dates and unknown fields', () => {
    const a = clone();
    (a.scan.answers[1] as { text: unknown }).text = 5;
    expect(problem(a).field).toBe('scan.answers[1].text');
    const b = clone();
    b.scan.answers[2].prompt_id = 'p9';
    expect(problem(b)).toMatchObject({ field: 'scan.answers[2].prompt_id' });
    const c = clone();
    c.scan.answers[0].citations[1] = 'not a url';
    expect(problem(c)).toMatchObject({ field: 'scan.answers[0].citations[1]' });
    const d = clone();
    d.scan.date = '2026-02-30';
    expect(problem(d)).toMatchObject({ field: 'scan.date' });
    const e = { ...clone(), extra: 1 };
    expect(problem(e)).toMatchObject({ field: '(root)' });
    expect(problem(e).message).toMatch(/unknown field\(s\) extra/);
    const g = clone();
    g.prompts[1].id = 'p1';
    expect(problem(g)).toMatchObject({ field: 'prompts[1].id' });
    expect(problem(null).field).toBe('(root)');
  });

  it('strips NUL characters that PostgreSQL cannot store', () => {
    const f = clone();
    f.scan.answers[0].text = 'Acme\u0000 ok';
    expect(parseImportFile(f).scan.answers[0].text).toBe('Acme ok');
  });

  it('formats paths', () => {
    expect(formatPath(['scan', 'answers', 3, 'platform'])).toBe('scan.answers[3].platform');
    expect(formatPath([])).toBe('(root)');
  });
});

describe('published JSON Schema', () => {
  it('docs/visibility-import.schema.json is the schema of the validator', () => {
    // Regenerate: npx ts-node --transpile-only -e "console.log(JSON.stringify(require('./src/visibility/import/import-schema').importJsonSchema(), null, 2))" > docs/visibility-import.schema.json
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const published = require('../../../docs/visibility-import.schema.json');
    expect(published).toEqual(importJsonSchema());
  });
});
