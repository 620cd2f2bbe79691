import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { validateXML } from 'xmllint-wasm';

const SCHEMAS = join(__dirname, 'schemas');

const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);
const sarifCheck = ajv.compile(
  JSON.parse(readFileSync(join(SCHEMAS, 'sarif-2.1.0-subset.schema.json'), 'utf8')) as object,
);

/** Schema errors of a SARIF log (empty: valid). */
export function sarifErrors(log: unknown): string[] {
  return sarifCheck(log) ? [] : (sarifCheck.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''}`);
}

/** XSD errors of a JUnit XML document (libxml2's validator compiled to WASM; empty: valid). */
export async function junitErrors(xml: string): Promise<string[]> {
  const result = await validateXML({
    xml: [{ fileName: 'report.xml', contents: xml }],
    schema: [{ fileName: 'junit.xsd', contents: readFileSync(join(SCHEMAS, 'junit.xsd'), 'utf8') }],
  });
  return result.valid ? [] : result.errors.map((e) => e.message);
}
