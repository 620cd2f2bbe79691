import type { z } from 'zod';
import { clip } from '../core/clip';
import { ToolFailure } from '../core/tool-failure';

/**
 * The wording of argument errors, beside the tools whose arguments they are about: every entry
 * point (MCP, the website's fallback) shows these messages as they are; the website words the
 * common ones itself from the typed zod issues (src/web/pdf-form.ts).
 */

/** Readable summary of zod issues, naming each argument path and what it accepts. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((i) => `${i.path.length ? i.path.join('.') : 'arguments'}: ${issueMessage(i)}`)
    .join('; ');
}

/** zod's message, with what is allowed where zod only says "Invalid input" (a union of values, a record key). */
function issueMessage(issue: z.core.$ZodIssue): string {
  const received =
    issue.input === undefined
      ? 'it is missing'
      : `received ${clip(JSON.stringify(issue.input) ?? typeof issue.input, 40)}`;
  if (issue.code === 'invalid_union') {
    const values = issue.errors.flat().flatMap((sub) => (sub.code === 'invalid_value' ? sub.values : []));
    if (values.length && issue.errors.every((e) => e.every((sub) => sub.code === 'invalid_value'))) {
      const list = values.map((v) => JSON.stringify(v));
      return `must be ${list.length > 1 ? `${list.slice(0, -1).join(', ')} or ${list[list.length - 1]}` : list[0]} (${received}).`.replace(
        /\.$/,
        '',
      );
    }
  }
  // A file given as a bare string (an id, an address, the content): say what shape it takes.
  const fileArgument =
    issue.path[0] === 'file' ? issue.path.length === 1 : issue.path[0] === 'files' && issue.path.length === 2;
  if (issue.code === 'invalid_type' && issue.expected === 'object' && fileArgument) {
    return `${issue.message}; give an object: {"file_id": "..."}, {"url": "https://..."} or {"base64": "..."}`;
  }
  if (issue.code === 'invalid_key') {
    const inner = issue.issues[0];
    return `the key ${clip(JSON.stringify(issue.input ?? issue.path[issue.path.length - 1]), 70)} is not allowed${inner ? ` (${inner.message})` : ''}`;
  }
  return issue.message;
}

/** The arguments of a call refused by the tool's schema. */
export function invalidArguments(tool: string, error: z.ZodError): ToolFailure {
  return new ToolFailure('invalid_arguments', `Invalid arguments for ${tool}: ${describeIssues(error)}.`);
}

/** The `inline` argument (every tool has it) given as something else than a boolean. */
export function invalidInline(tool: string): ToolFailure {
  return new ToolFailure('invalid_arguments', `Invalid arguments for ${tool}: inline: expected a boolean.`);
}

/** An input file given with none or several of its sources. */
export function notExactlyOneSource(label: string): ToolFailure {
  return new ToolFailure(
    'invalid_arguments',
    `${label}: give exactly one of file_id (an earlier result or upload), url (an http(s) address of the PDF) or base64 (the PDF's content).`,
    { input: label },
  );
}
