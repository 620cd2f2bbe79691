import { z } from 'zod';
import type { PdfTool } from '../pdf-tools/tools/tool';
import { html, SafeHtml } from './render/html';
import { pageRangeWords, WEB_TOOL_TEXT, WebFieldText } from './pdf-web-text';

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
  /** The website's own words for it (label, hint, choices, when it is shown), see pdf-web-text.ts. */
  web: WebFieldText;
}

/** The option fields of a tool: every argument of its input schema except the files (and those the website does not offer). */
export function optionFields(tool: PdfTool): OptionField[] {
  const words = WEB_TOOL_TEXT[tool.name]?.fields ?? {};
  const root = z.toJSONSchema(tool.input, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  const out: OptionField[] = [];
  const walk = (s: JsonSchema, prefix: string[]): void => {
    for (const [name, prop] of Object.entries(s.properties ?? {})) {
      if (prefix.length === 0 && FILE_ARGS.has(name)) continue;
      if (prop.type === 'object') {
        if (prop.properties) walk(prop, [...prefix, name]);
        continue; // free-form records (custom metadata keys) are for MCP clients
      }
      const path = [...prefix, name];
      const web = words[path.join('.')] ?? {};
      if (web.hidden) continue;
      out.push({ path, schema: prop, required: web.required === true || ((s.required ?? []).includes(name) && prop.default === undefined), web });
    }
  };
  walk(root, []);
  return out;
}

export const label = (path: string[]): string => path.map((p) => p.replace(/_/g, ' ')).join(': ').replace(/^./, (c) => c.toUpperCase());
/** A field's label: the website's own, or its argument path in words. */
export const fieldLabel = (f: OptionField): string => f.web.label ?? label(f.path);
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
  return pageRangeWords(text)
    .replace(JSON_STRINGS, (list) => `"${(JSON.parse(list) as string[]).join(', ')}"`)
    .replace(ARGUMENT, (whole, name: string) => {
      const f = fieldOf(name, fields);
      return f ? `"${fieldLabel(f)}"` : whole;
    })
    .replace(LEADING_PATH, (whole, name: string) => {
      const f = fieldOf(name, fields);
      return f ? `${fieldLabel(f)}: ` : whole;
    });
}

/** A tool's error message for the web form, and the id of the field it is about (the error summary links to it). */
export function webError(message: string, fields: OptionField[]): { message: string; field?: string } {
  const named = [...message.matchAll(ARGUMENT)].map((m) => m[1]);
  const lead = LEADING_PATH.exec(message)?.[1];
  const f = [...(lead ? [lead] : []), ...named].map((n) => fieldOf(n, fields)).find((x) => x !== undefined);
  return { message: webWording(message, fields).replace(/^./, (c) => c.toUpperCase()), field: f ? idOf(f.path) : undefined };
}

/** A submitted form value: a checkbox sends its hidden "false" and then, when ticked, "true" (the last one counts). */
export const single = (v: unknown): string | undefined => {
  const last: unknown = Array.isArray(v) ? v[v.length - 1] : v;
  return typeof last === 'string' ? last : undefined;
};

/**
 * The field of one option: a checkbox for a yes/no, a select for choices, a number or text input
 * otherwise; the website's hint or the schema's description (in the form's words, see
 * {@link webWording}). A field shown for one choice of another (split's ranges for mode "ranges")
 * says so in its hint; the page script hides it for the other choices. `fields` are the tool's
 * other options (named in descriptions), `invalid` the id of the field an error is about.
 */
export function renderOption(f: OptionField, values: Record<string, string>, fields: OptionField[] = [f], invalid?: string): SafeHtml {
  const id = idOf(f.path);
  const name = nameOf(f.path);
  const d = f.schema.default;
  const value = values[name] ?? (typeof d === 'string' || typeof d === 'number' || typeof d === 'boolean' ? String(d) : '');
  const hintText =
    f.web.hint ?? (f.schema.description ? `${webWording(f.schema.description, fields)}${f.schema.type === 'array' ? ' Separate entries with commas.' : ''}` : undefined);
  const hint = hintText ? html`<span class="hint" id="${id}-hint">${hintText}</span>` : '';
  const described = html`${hintText ? html` aria-describedby="${id}-hint"` : ''}${invalid === id ? html` aria-invalid="true"` : ''}`;
  const when = f.web.when ? html` data-when="${idOf(f.web.when.field.split('.'))}" data-when-value="${f.web.when.value}"` : '';
  if (f.schema.type === 'boolean') {
    return html`<div class="check"${when}><input type="hidden" name="${name}" value="false"><input type="checkbox" id="${id}" name="${name}" value="true"${value === 'true' ? html` checked` : ''}${described}> <label for="${id}">${fieldLabel(f)}</label>${hint ? html`<br>${hint}` : ''}</div>`;
  }
  const opts = choices(f.schema);
  let control: SafeHtml;
  if (opts) {
    control = html`<select id="${id}" name="${name}"${described}${f.required ? html` required` : ''}>${f.required ? '' : html`<option value="">(default)</option>`}${opts.map((o) => {
      const v = String(o);
      return html`<option value="${v}"${v === value ? html` selected` : ''}>${f.web.choices?.[v] ?? v}</option>`;
    })}</select>`;
  } else if (f.schema.type === 'number' || f.schema.type === 'integer') {
    control = html`<input type="number" id="${id}" name="${name}" value="${value}"${f.schema.minimum !== undefined ? html` min="${f.schema.minimum}"` : ''}${f.schema.maximum !== undefined ? html` max="${f.schema.maximum}"` : ''} step="${f.schema.type === 'integer' ? '1' : 'any'}"${described}>`;
  } else {
    control = html`<input type="text" id="${id}" name="${name}" value="${value}"${described}${f.required ? html` required` : ''}>`;
  }
  // A field that depends on another choice says when it is needed in its hint, not "(optional)".
  const optional = !f.required && !f.web.when;
  return html`<div${when}><label for="${id}">${fieldLabel(f)}${optional ? html` <span class="hint">(optional)</span>` : ''}</label><br>${control}<br>${hint}</div>`;
}

/** Tool arguments from the submitted option fields (empty fields left to the tool's defaults; fields of another choice left out). */
export function optionArgs(fields: OptionField[], body: Record<string, unknown>): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const f of fields) {
    const raw = single(body[nameOf(f.path)]);
    if (raw === undefined || raw.trim() === '') continue;
    if (f.web.when && single(body[nameOf(f.web.when.field.split('.'))]) !== f.web.when.value) continue;
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
    const v = single(body[nameOf(f.path)]);
    if (v !== undefined) out[nameOf(f.path)] = v;
  }
  return out;
}
