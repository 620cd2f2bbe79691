/**
 * Over 300 lines: the whole round trip of a tool's options between its JSON Schema and an HTML form (fields from the
 * schema, rendering, posted values back to arguments, the tool's errors reworded for those fields), so a field's name,
 * label and error message cannot drift apart.
 */
import { z } from 'zod';
import type { PdfTool } from '../pdf-tools/tools/tool';
import { html, SafeHtml } from '../common/html/html';
import { PAGE_EXAMPLES, pageRangeWords, WEB_TOOL_TEXT, WebFieldText } from './pdf-web-text';
import { pageRangeTokens, parsePageRange } from '../pdf-tools/core/page-range';
import { plural } from '../common/text/plural';

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
      out.push({
        path,
        schema: prop,
        required: web.required === true || ((s.required ?? []).includes(name) && prop.default === undefined),
        web,
      });
    }
  };
  walk(root, []);
  return out;
}

export const label = (path: string[]): string =>
  path
    .map((p) => p.replace(/_/g, ' '))
    .join(': ')
    .replace(/^./, (c) => c.toUpperCase());
/** A field's label: the website's own, or its argument path in words. */
export const fieldLabel = (f: OptionField): string => f.web.label ?? label(f.path);
export const idOf = (path: string[]): string => `opt-${path.join('-')}`;
export const nameOf = (path: string[]): string => `opt.${path.join('.')}`;

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
  return {
    message: webWording(message, fields).replace(/^./, (c) => c.toUpperCase()),
    field: f ? idOf(f.path) : undefined,
  };
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
export function renderOption(
  f: OptionField,
  values: Record<string, string>,
  fields: OptionField[] = [f],
  invalid?: string,
): SafeHtml {
  const id = idOf(f.path);
  const name = nameOf(f.path);
  const value = values[name] ?? shownDefault(f);
  const hintText =
    f.web.hint ??
    (f.schema.description
      ? `${webWording(f.schema.description, fields)}${f.schema.type === 'array' ? ' Separate entries with commas.' : ''}`
      : undefined);
  const hint = hintText ? html`<span class="hint" id="${id}-hint">${hintText}</span>` : '';
  const described = html`${hintText ? html` aria-describedby="${id}-hint"` : ''}${invalid === id ? html` aria-invalid="true"` : ''}`;
  const when = f.web.when
    ? html` data-when="${idOf(f.web.when.field.split('.'))}" data-when-value="${f.web.when.value}"`
    : '';
  if (f.schema.type === 'boolean') {
    return html`<div class="check"${when}><input type="hidden" name="${name}" value="false"><input type="checkbox" id="${id}" name="${name}" value="true"${value === 'true' ? html` checked` : ''}${described}> <label for="${id}">${fieldLabel(f)}</label>${hint ? html`<br>${hint}` : ''}</div>`;
  }
  const opts = choices(f.schema);
  let control: SafeHtml;
  if (opts) {
    control = html`<select id="${id}" name="${name}"${described}${f.required ? html` required` : ''}>${f.required ? '' : html`<option value="">(default)</option>`}${opts.map(
      (o) => {
        const v = String(o);
        return html`<option value="${v}"${v === value ? html` selected` : ''}>${f.web.choices?.[v] ?? v}</option>`;
      },
    )}</select>`;
  } else if (f.web.kind === 'colour') {
    // A colour picker (a text field where the browser has none); the page script adds a field for the colour's code.
    const colour = COLOUR.test(value) ? value.toLowerCase() : '#000000';
    control = html`<input type="color" id="${id}" name="${name}" value="${colour}"${described}><span class="colour-code" data-colour-code="${id}" hidden> <label for="${id}-code">Colour code</label> <input type="text" id="${id}-code" value="${colour}" size="8" maxlength="7" spellcheck="false" autocomplete="off" data-invalid="${colourError(f)}"></span>`;
  } else if (f.web.kind === 'datetime') {
    control = html`<input type="datetime-local" id="${id}" name="${name}" value="${value}" step="1"${described}>`;
  } else if (f.schema.type === 'number' || f.schema.type === 'integer') {
    const { min, max } = shownRange(f);
    control = html`<input type="number" id="${id}" name="${name}" value="${value}"${min !== undefined ? html` min="${min}"` : ''}${max !== undefined ? html` max="${max}"` : ''} step="${f.schema.type === 'integer' ? '1' : 'any'}"${described}>`;
  } else {
    // A page-range field gets the page picker (thumbnails of the chosen file) from the page script; in a
    // list of ranges (split's, one document per range) a ticked page starts a document ("starts").
    const picker = f.web.pageRange ? html` data-page-picker="${f.schema.type === 'array' ? 'starts' : ''}"` : '';
    control = html`<input type="text" id="${id}" name="${name}" value="${value}"${described}${f.required ? html` required` : ''}${picker}>`;
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
    else if (f.schema.type === 'number' || f.schema.type === 'integer')
      v = /^-?\d+(\.\d+)?$/.test(text) ? (f.web.kind === 'percent' ? Number(text) / 100 : Number(text)) : text;
    else if (f.web.kind === 'datetime')
      v = LOCAL_DATETIME.test(text) ? `${text}${text.length === 16 ? ':00' : ''}Z` : text;
    else if (f.schema.type === 'array')
      v = text
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
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

/** A colour field's value that is not a colour code, in the page's words (the server's check and the script's). */
const colourError = (f: OptionField): string =>
  `${fieldLabel(f)} must be a colour code such as #808080, or pick the colour.`;

/** A colour code as the tools take it. */
const COLOUR = /^#[0-9a-f]{6}$/i;
/** What `<input type=datetime-local>` sends ("2024-05-01T12:00", seconds optional), read as UTC. */
const LOCAL_DATETIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d)?$/;

/** A percent field shows the tool's fraction times 100 (0.3 is 30 %). */
const shown = (f: OptionField, n: number | undefined): number | undefined =>
  n === undefined ? undefined : f.web.kind === 'percent' ? Math.round(n * 100 * 1000) / 1000 : n;
/** The smallest and largest value of a number field, as the form shows them. */
const shownRange = (f: OptionField): { min?: number; max?: number } => ({
  min: shown(f, f.schema.minimum),
  max: shown(f, f.schema.maximum),
});

/** The value a field shows before anything is typed: the tool's default, in the form's terms. */
function shownDefault(f: OptionField): string {
  const d = f.schema.default;
  if (typeof d === 'number') return String(shown(f, d));
  return typeof d === 'string' || typeof d === 'boolean' ? String(d) : '';
}

/** An error the form shows: the message and the id of the field it is about. */
export interface FormError {
  message: string;
  field?: string;
}

/** A quoted field label for messages: "Font size". */
const quoted = (f: OptionField): string => `"${fieldLabel(f)}"`;

/** A number field's range in words: "between 4 and 300", "between 5 and 100 %", "at least 0". */
function rangeWords(f: OptionField): string {
  const { min, max } = shownRange(f);
  const unit = f.web.kind === 'percent' ? ' %' : '';
  if (min !== undefined && max !== undefined) return `between ${min} and ${max}${unit}`;
  if (min !== undefined) return `at least ${min}${unit}`;
  return max !== undefined ? `at most ${max}${unit}` : 'a number';
}

/**
 * What the website checks before a run, in the page's words, from the form itself: a required field
 * left empty (or the field the chosen mode needs: split's "Page ranges"), the field's own check
 * (page numbers' format), a colour that is not a colour code. (A field of another mode is not sent;
 * the tools' argument checks follow in {@link validationError}.)
 */
export function formError(fields: OptionField[], body: Record<string, unknown>): FormError | undefined {
  for (const f of fields) {
    const raw = (single(body[nameOf(f.path)]) ?? '').trim();
    const when = f.web.when;
    if (when && single(body[nameOf(when.field.split('.'))]) !== when.value) continue;
    if (raw === '' && f.required) return { message: `Fill in ${quoted(f)}.`, field: idOf(f.path) };
    if (raw === '' && when) {
      // The field the chosen mode needs (split's "Page ranges" for "By page ranges"), said with the choice's words.
      const choice = fieldOf(when.field, fields)?.web.choices?.[when.value] ?? when.value;
      return { message: `You chose "${choice}": fill in ${quoted(f)}.`, field: idOf(f.path) };
    }
    const problem = raw === '' ? undefined : f.web.check?.(raw);
    if (problem) return { message: problem, field: idOf(f.path) };
    if (raw !== '' && f.web.kind === 'colour' && !COLOUR.test(raw))
      return { message: colourError(f), field: idOf(f.path) };
  }
  return undefined;
}

/** A zod issue as the website reads it (the fields it uses). */
interface Issue {
  code: string;
  path: PropertyKey[];
  origin?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
  format?: string;
}

/**
 * The first problem of a tool's arguments in the page's words, from the tool's own input schema
 * (its typed issue: code, path, limits), linked to its field: "Opacity must be between 5 and 100 %",
 * "Choose at least two PDFs to merge". Undefined when the arguments are valid. The MCP message of
 * the same problem ("Invalid arguments for ...: opacity: Too big ...") stays as it is for MCP clients.
 */
export function validationError(
  tool: PdfTool,
  fields: OptionField[],
  args: Record<string, unknown>,
): FormError | undefined {
  const parsed = tool.input.safeParse(args);
  if (parsed.success) return undefined;
  // The number of files first: a merge of one file is about that, whatever else is wrong.
  const issues = parsed.error.issues as Issue[];
  const issue = issues.find((i) => i.path.length === 1 && i.path[0] === 'files') ?? issues[0];
  const path = issue.path.map(String);
  if (path[0] === 'files' || path[0] === 'file') {
    if (path.length === 1 && issue.code === 'too_small')
      return {
        message: `Choose at least ${Number(issue.minimum) === 2 ? 'two PDFs' : plural(Number(issue.minimum), 'PDF')} to merge.`,
        field: 'file',
      };
    if (path.length === 1 && issue.code === 'too_big')
      return { message: `Choose at most ${plural(Number(issue.maximum), 'PDF')}.`, field: 'file' };
    return { message: 'Choose the PDF files again: one of them could not be used.', field: 'file' };
  }
  // The field of the issue's path (an entry of a list field belongs to the list).
  const f = fields.find(
    (x) => x.path.join('.') === path.slice(0, x.path.length).join('.') && path.length - x.path.length <= 1,
  );
  if (!f) return { message: 'The options could not be used: check them and try again.' };
  const field = idOf(f.path);
  const name = fieldLabel(f);
  const entry = path.length > f.path.length;
  const type = f.schema.type;
  if (type === 'number' || type === 'integer') {
    return { message: `${name} must be ${type === 'integer' ? 'a whole number ' : ''}${rangeWords(f)}.`, field };
  }
  if (issue.code === 'invalid_format' && f.web.kind === 'datetime')
    return { message: `${name} must be a date and a time of day.`, field };
  if (issue.code === 'too_big' && issue.maximum !== undefined) {
    const max = Number(issue.maximum);
    if (issue.origin === 'array') return { message: `${name}: at most ${plural(max, 'entry', 'entries')}.`, field };
    return {
      message: `${entry ? `An entry of ${quoted(f)}` : name} is too long: at most ${plural(max, 'character')}.`,
      field,
    };
  }
  if (issue.code === 'too_small') return { message: `Fill in ${quoted(f)}.`, field };
  if (issue.code === 'invalid_value') return { message: `Choose one of the values offered for ${quoted(f)}.`, field };
  return { message: `${name} is not valid: check it and try again.`, field };
}

/**
 * A page-range field checked before the run, in the page's words: an entry that is not a page or a
 * range, a range written backwards ("5-3" is refused: the website asks for "3-5", where MCP would
 * list pages 5, 4, 3), a page the file does not have, a range that selects no page. `pageCount` is
 * the file's (null when not known: a password-protected file); `list` checks each entry on its own
 * (split's ranges, one document per entry).
 */
export function pageRangeError(
  f: OptionField,
  text: string,
  pageCount: number | null,
  fileName: string,
  list = false,
): FormError | undefined {
  const field = idOf(f.path);
  const entries = text.split(',').map((e) => e.trim());
  for (const entry of entries) {
    let m: RegExpExecArray | undefined;
    try {
      m = pageRangeTokens(entry)[0];
    } catch {
      m = undefined;
    }
    if (!m)
      return {
        message: `${entry === '' ? 'An empty entry' : `"${entry}"`} in ${quoted(f)} is not a page or a range of pages. ${PAGE_EXAMPLES}`,
        field,
      };
    const [, from, to, one] = m;
    const page = (s: string | undefined): number | undefined =>
      s === undefined ? undefined : s.toLowerCase() === 'last' ? (pageCount ?? undefined) : Number(s);
    const a = page(from);
    const b = page(to);
    if (a !== undefined && b !== undefined && a > b) {
      return {
        message: `The range "${entry}" in ${quoted(f)} runs backwards: write its lower page first, "${to}-${from}".`,
        field,
      };
    }
    for (const n of [a, b, one && /^\d+$/.test(one) ? Number(one) : undefined]) {
      if (n !== undefined && (n < 1 || (pageCount !== null && n > pageCount))) {
        return {
          message: `There is no page ${n} in ${fileName}${pageCount !== null ? `: it has ${plural(pageCount, 'page')}` : ''}.`,
          field,
        };
      }
    }
  }
  if (pageCount === null) return undefined;
  for (const spec of list ? entries : [text]) {
    let chosen: number[];
    try {
      chosen = parsePageRange(spec, pageCount);
    } catch {
      return { message: `"${spec}" selects no page of ${fileName}, which has ${plural(pageCount, 'page')}.`, field };
    }
    if (f.web.leavesOne && new Set(chosen).size >= pageCount)
      return { message: `"${spec}" selects every page of ${fileName}: at least one page must remain.`, field };
  }
  return undefined;
}
