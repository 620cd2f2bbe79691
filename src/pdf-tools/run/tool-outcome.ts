import type { ToolErrorCode } from '../core/tool-failure';
import type { QuotaState } from '../quota/quota.service';
import type { StoredFileInfo } from '../tools/tool';

/**
 * The caller of a tool run: its IP (quota subject) and, for the website, its device id: a call
 * with a device id counts on the quota's 'web' channel (per device, IP pool cap 4x), else 'mcp'.
 */
export interface Caller {
  ip: string;
  deviceId?: string;
  /** The signed-in website user: counted per account with the higher limit (issue 23). */
  userId?: string;
}

/** A stored result file of a run: its stored-file fields, the tool's own fields about it, its bytes. */
export interface OutcomeFile extends StoredFileInfo {
  /** The tool's fields about this file (split: `source_pages`), in the tool's order. */
  extra: Record<string, unknown>;
  /** The stored bytes (an entry point may embed small ones). */
  content: Uint8Array;
}

/** One thing opening did to one or more inputs: the sentence after their names, for one input and for several. */
export interface OpenedNote {
  inputs: number[];
  one: string;
  many: string;
}

/** A run that produced its result (files stored, quota counted). */
export interface ToolSuccess {
  ok: true;
  tool: string;
  /** How the tool returns files: one (`file`), a list (`files`), maybe one (`optional-file`) or none, the text (`text`). */
  shape: 'file' | 'files' | 'optional-file' | 'text';
  /** The tool's sentence, e.g. "Rotated 3 pages by 90 degrees." */
  summary: string;
  files: OutcomeFile[];
  /**
   * The tool's own fields (echoed pages, sizes, metadata, `note`), in the tool's order, without
   * the per-file ones (those are in each file's `extra`).
   */
  data: Record<string, unknown>;
  /** The document's text, for a reading tool (read_pdf: Markdown with page markers). */
  text?: string;
  /** What opening did to the inputs and the tool's own remark (decrypted, repaired, ...), if anything, in words. */
  note?: string;
  /** The same, typed: what opening did, per thing done, with the inputs it was done to (their indexes). */
  opened: OpenedNote[];
  /** The tool's own remark, without what opening did. */
  toolNote?: string;
  /** The call asked for the bytes of small files in the answer (the `inline` argument). */
  inline: boolean;
  quota: QuotaState;
}

/** A run that failed: nothing stored; the quota refunded when it had been counted (and the allowance permits). */
export interface ToolFailed {
  ok: false;
  tool: string;
  code: ToolErrorCode;
  /** For people and models alike, with the refund sentence when the quota had been counted. */
  message: string;
  /** The failure's own fields (`input` label, `limit`, `pages`, `reason`, ...), in its order. */
  details: Record<string, unknown>;
  /** The input file the failure is about: its index in the call's inputs (merge: the order of `files`). */
  inputIndex?: number;
  /** For `encrypted`: whether a password was given with that input (a wrong one) or not. */
  passwordGiven?: boolean;
  /** Set when the quota had been counted: true when this failure gave it back. */
  refunded?: boolean;
  quota: QuotaState;
}

/** What a tool run returns to every entry point (MCP renders it as a result, the website as a page). */
export type ToolOutcome = ToolSuccess | ToolFailed;
