import { z } from 'zod';
import type { PdfTool } from '../pdf-tools/tools/tool';
import { html, SafeHtml } from './render/html';

/** The JSON Schema subset the tools' input schemas use. */
interface JsonSchema {
  type?: string;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  const?: unknown;
  default?: unknown;
  description?: string;
  minimum?: number;
  maximum?: number;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
}

/** Arguments the website fills from the uploaded files (or does not offer). */
const FILE_ARGS = new Set(['file', 'files', 'image_base64']);

/** One option of a tool as a form field, derived from the tool's own input schema. */
export interface OptionField {
  /** Path in the arguments, e.g. ["set", "title"]. */
  path: string[];
  schema: JsonSchema;
  required: boolean;
}

/** The option fields of a tool: every argument of its input schema except the files. */
export function optionFields(tool: PdfTool): OptionField[] {
  const root = z.toJSONSchema(tool.input, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  const out: OptionField[] = [];
  const walk = (s: JsonSchema, prefix: string[]): void => {
    for (const [name, prop] of Object.entries(s.properties ?? {})) {
      if (prefix.length === 0 && FILE_ARGS.has(name)) continue;
      if (prop.type === 'object') {
        if (prop.properties) walk(prop, [...prefix, name]);
        continue; // free-form records (custom metadata keys) are for MCP clients
      }
      out.push({ path: [...prefix, name], schema: prop, required: (s.required ?? []).includes(name) && prop.default === undefined });
    }
  };
  walk(root, []);
  return out;
}

export const label = (path: string[]): string => path.map((p) => p.replace(/_/g, ' ')).join(': ').replace(/^./, (c) => c.toUpperCase());
export const idOf = (path: string[]): string => `opt-${path.join('-')}`;
const nameOf = (path: string[]): string => `opt.${path.join('.')}`;

function choices(s: JsonSchema): unknown[] | null {
  if (s.enum) return s.enum;
  if (s.anyOf && s.anyOf.every((a) => a.const !== undefined)) return s.anyOf.map((a) => a.const);
  if (s.type === 'boolean') return [true, false];
  return null;
}

/** A JSON array of strings in a tool's text, as MCP clients send it: `["1-3", "4-"]`. */
const JSON_STRINGS = /\[\s*"[^"\]]*"(?:\s*,\s*"[^"\]]*")*\s*\]/g;
/** An argument named in a tool's text: `ranges`, `set.title`. */
const ARGUMENT = /`([A-Za-z_][\w.]*)`/g;
/** A validation message of the tool runner starts with the argument's path: "ranges: Too small...". */
const LEADING_PATH = /^([A-Za-z_][\w.]*): /;

const fieldOf = (name: string, fields: OptionField[]): OptionField | undefined =>
  fields.find((f) => f.path.join('.') === name) ?? fields.find((f) => f.path[f.path.length - 1] === name);

/**
 * A tool's description or message in the words of the web form rather than of MCP's JSON: a JSON
 * array of strings becomes the comma-separated text the form's field takes (`["1-3", "4-"]` is
 * "1-3, 4-"), and an argument's name becomes its field's label (`ranges` is "Ranges"). The tool's
 * own text (src/pdf-tools) stays as MCP clients read it.
 */
export function webWording(text: string, fields: OptionField[]): string {
  return text
    .replace(JSON_STRINGS, (list) => `"${(JSON.parse(list) as string[]).join(', ')}"`)
    .replace(ARGUMENT, (whole, name: string) => {
      const f = fieldOf(name, fields);
      return f ? `"${label(f.path)}"` : whole;
    })
    .replace(LEADING_PATH, (whole, name: string) => {
      const f = fieldOf(name, fields);
      return f ? `${label(f.path)}: ` : whole;
    });
}

/** A tool's error message for the web form, and the id of the field it is about (the error summary links to it). */
export function webError(message: string, fields: OptionField[]): { message: string; field?: string } {
  const named = [...message.matchAll(ARGUMENT)].map((m) => m[1]);
  const lead = LEADING_PATH.exec(message)?.[1];
  const f = [...(lead ? [lead] : []), ...named].map((n) => fieldOf(n, fields)).find((x) => x !== undefined);
  return { message: webWording(message, fields).replace(/^./, (c) => c.toUpperCase()), field: f ? idOf(f.path) : undefined };
}

/**
 * The field of one option: a select for choices, a number or text input otherwise; the schema's
 * description (in the form's words, see {@link webWording}) as its hint. `fields` are the tool's
 * other options (named in descriptions), `invalid` the id of the field an error is about.
 */
export function renderOption(f: OptionField, values: Record<string, string>, fields: OptionField[] = [f], invalid?: string): SafeHtml {
  const id = idOf(f.path);
  const name = nameOf(f.path);
  const d = f.schema.default;
  const value = values[name] ?? (typeof d === 'string' || typeof d === 'number' || typeof d === 'boolean' ? String(d) : '');
  const hint = f.schema.description
    ? html`<span class="hint" id="${id}-hint">${webWording(f.schema.description, fields)}${f.schema.type === 'array' ? ' Separate entries with commas.' : ''}</span>`
    : '';
  const described = html`${f.schema.description ? html` aria-describedby="${id}-hint"` : ''}${invalid === id ? html` aria-invalid="true"` : ''}`;
  const opts = choices(f.schema);
  let control: SafeHtml;
  if (opts) {
    control = html`<select id="${id}" name="${name}"${described}${f.required ? html` required` : ''}>${f.required ? '' : html`<option value="">(default)</option>`}${opts.map((o) => html`<option${String(o as string) === value ? html` selected` : ''}>${String(o as string)}</option>`)}</select>`;
  } else if (f.schema.type === 'number' || f.schema.type === 'integer') {
    control = html`<input type="number" id="${id}" name="${name}" value="${value}"${f.schema.minimum !== undefined ? html` min="${f.schema.minimum}"` : ''}${f.schema.maximum !== undefined ? html` max="${f.schema.maximum}"` : ''} step="${f.schema.type === 'integer' ? '1' : 'any'}"${described}>`;
  } else {
    control = html`<input type="text" id="${id}" name="${name}" value="${value}"${described}${f.required ? html` required` : ''}>`;
  }
  return html`<div><label for="${id}">${label(f.path)}${f.required ? '' : html` <span class="hint">(optional)</span>`}</label><br>${control}<br>${hint}</div>`;
}

/** Tool arguments from the submitted option fields (empty fields left to the tool's defaults). */
export function optionArgs(fields: OptionField[], body: Record<string, unknown>): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const f of fields) {
    const raw = body[nameOf(f.path)];
    if (typeof raw !== 'string' || raw.trim() === '') continue;
    const text = raw.trim();
    let v: unknown = text;
    const opts = choices(f.schema);
    if (opts) v = opts.find((o) => String(o as string) === text) ?? text;
    else if (f.schema.type === 'number' || f.schema.type === 'integer') v = /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text;
    else if (f.schema.type === 'array') v = text.split(',').map((s) => s.trim()).filter(Boolean);
    let target = args;
    for (const p of f.path.slice(0, -1)) target = (target[p] ??= {}) as Record<string, unknown>;
    target[f.path[f.path.length - 1]] = v;
  }
  return args;
}

/** The submitted option values, to refill the form after an error. */
export function optionValues(fields: OptionField[], body: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of fields) {
    const v = body[nameOf(f.path)];
    if (typeof v === 'string') out[nameOf(f.path)] = v;
  }
  return out;
}
