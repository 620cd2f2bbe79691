import { Injectable } from '@nestjs/common';
import { AiProviderError } from '../../common/ai/ai-provider-error';
import { AiProvidersService } from '../../common/ai/ai-providers.service';
import type { AiPlatform, AiProvider } from '../../common/ai/ai.types';
import { AppConfig } from '../../common/config/env';
import { FileStoreService } from '../files/file-store.service';
import { PdfAiUsageStore } from './pdf-ai-usage.store';
import {
  chatPrompt,
  chunkPages,
  citedPages,
  combinePrompt,
  NOT_IN_DOCUMENT,
  numbered,
  PageText,
  relevantPages,
  summaryPrompt,
  translatedPages,
  translatePrompt,
} from './pages';
import { extractPageTexts } from './pdf-text';

/** Longest chat question (characters). */
export const MAX_QUESTION_CHARS = 2000;
/** Most model calls one summary or translation may make (parts + the combining call). */
export const MAX_CALLS_PER_RUN = 20;
/** The languages a document can be translated into (names the model and the page both use). */
export const LANGUAGES = [
  'English',
  'German',
  'French',
  'Spanish',
  'Italian',
  'Portuguese',
  'Dutch',
  'Polish',
  'Czech',
  'Swedish',
  'Turkish',
  'Russian',
  'Ukrainian',
  'Greek',
  'Arabic',
  'Hebrew',
  'Hindi',
  'Chinese (Simplified)',
  'Japanese',
  'Korean',
] as const;
/** The platforms asked, in this order of preference (the first configured one). */
const PREFERENCE: AiPlatform[] = ['openai_compatible', 'openai', 'anthropic', 'gemini', 'perplexity'];

export type PdfAiFailureReason =
  | 'not_configured'
  | 'file_gone'
  | 'no_text_layer'
  | 'unreadable'
  | 'invalid_question'
  | 'invalid_language'
  | 'daily_limit'
  | 'too_long'
  | 'provider_failed';

export interface PdfAiFailure {
  ok: false;
  reason: PdfAiFailureReason;
  /** For people, in the page's words. */
  message: string;
}

export interface PdfAiUser {
  id: string;
  workspace_id: string;
}

interface Usage {
  calls: number;
  tokens: number;
  model: string;
}
export type SummaryResult = { ok: true; summary: string; pageCount: number; cited: number[] } & Usage;
export type ChatResult = {
  ok: true;
  answer: string;
  answered: boolean;
  cited: number[];
  pagesRead: number[];
  pageCount: number;
} & Usage;
export type TranslationResult = {
  ok: true;
  language: string;
  pages: PageText[];
  text: string;
  pageCount: number;
} & Usage;

class Refused extends Error {
  constructor(readonly failure: PdfAiFailure) {
    super(failure.message);
  }
}
const refuse = (reason: PdfAiFailureReason, message: string): never => {
  throw new Refused({ ok: false, reason, message });
};

/**
 * Summary, chat and translation of an uploaded PDF (issue #23 item 4, docs/pdf-tools.md): the
 * text layer page by page, split by pages to fit `PDF_AI_CONTEXT_TOKENS`, asked to the workspace's
 * configured AI platform, within each user's daily limits on calls and tokens. Each prompt carries
 * the pages of the one file the user chose, read for this request only (nothing is cached).
 */
@Injectable()
export class PdfAiService {
  constructor(
    private readonly config: AppConfig,
    private readonly providers: AiProvidersService,
    private readonly files: FileStoreService,
    private readonly usage: PdfAiUsageStore,
  ) {}

  /** The provider the features use, or null (the page then names the settings that enable one). */
  async provider(workspaceId: string): Promise<AiProvider | null> {
    const all = await this.providers.forWorkspace(workspaceId);
    for (const p of PREFERENCE) if (all.has(p)) return all.get(p)!;
    return null;
  }

  /** Today's use and the limits, for the page. */
  async today(userId: string): Promise<{ calls: number; tokens: number; maxCalls: number; maxTokens: number }> {
    return {
      ...(await this.usage.today(userId)),
      maxCalls: this.config.PDF_AI_DAILY_CALLS,
      maxTokens: this.config.PDF_AI_DAILY_TOKENS,
    };
  }

  summarize(user: PdfAiUser, fileId: string): Promise<SummaryResult | PdfAiFailure> {
    return this.run(
      async (ask, pages) => {
        const chunks = chunkPages(pages, this.config.PDF_AI_CONTEXT_TOKENS);
        await this.enoughCalls(user, chunks.length === 1 ? 1 : chunks.length + 1, 'summary');
        let summary: string;
        if (chunks.length === 1) summary = await ask(summaryPrompt(chunks[0]));
        else {
          const parts: string[] = [];
          for (const [i, c] of chunks.entries())
            parts.push(await ask(summaryPrompt(c, { index: i + 1, of: chunks.length })));
          summary = await ask(combinePrompt(parts));
        }
        return { summary, cited: citedPages(summary) };
      },
      user,
      fileId,
    );
  }

  async chat(user: PdfAiUser, fileId: string, question: string): Promise<ChatResult | PdfAiFailure> {
    const q = question.trim();
    if (!q) return { ok: false, reason: 'invalid_question', message: 'Enter a question about the document.' };
    if (q.length > MAX_QUESTION_CHARS)
      return {
        ok: false,
        reason: 'invalid_question',
        message: `Your question is ${q.length.toLocaleString('en')} characters long; ask in at most ${MAX_QUESTION_CHARS.toLocaleString('en')}.`,
      };
    return this.run(
      async (ask, pages, pageCount) => {
        const chosen = relevantPages(pages, q, this.config.PDF_AI_CONTEXT_TOKENS);
        await this.enoughCalls(user, 1, 'answer');
        const answer = await ask(chatPrompt(chosen, q, pageCount));
        const answered = !answer.trim().startsWith(NOT_IN_DOCUMENT.slice(0, -1));
        return {
          answer: answered ? answer : NOT_IN_DOCUMENT,
          answered,
          cited: answered ? citedPages(answer) : [],
          pagesRead: chosen.map((p) => p.page),
        };
      },
      user,
      fileId,
    );
  }

  async translate(user: PdfAiUser, fileId: string, language: string): Promise<TranslationResult | PdfAiFailure> {
    const lang = LANGUAGES.find((l) => l === language);
    if (!lang) return { ok: false, reason: 'invalid_language', message: 'Choose a language from the list.' };
    return this.run(
      async (ask, pages) => {
        // The translation is about as long as the text: half the budget for each.
        const chunks = chunkPages(pages, Math.floor(this.config.PDF_AI_CONTEXT_TOKENS / 2));
        await this.enoughCalls(user, chunks.length, 'translation');
        const out: PageText[] = [];
        for (const c of chunks) out.push(...translatedPages(await ask(translatePrompt(c, lang)), c[0].page));
        const text = out.map((p) => `[Page ${p.page}]\n${p.text}`).join('\n\n');
        return { language: lang, pages: out, text };
      },
      user,
      fileId,
    );
  }

  /** Refuses before the first call when the run needs more calls than the user has left today (or than one run may make). */
  private async enoughCalls(user: PdfAiUser, needed: number, what: string): Promise<void> {
    if (needed > MAX_CALLS_PER_RUN)
      refuse(
        'too_long',
        `This document is too long for a ${what}: it would take ${needed} model calls, and one ${what} may take ${MAX_CALLS_PER_RUN}. Split it into smaller PDFs first.`,
      );
    const { calls, tokens } = await this.usage.today(user.id);
    const max = this.config.PDF_AI_DAILY_CALLS;
    if (tokens >= this.config.PDF_AI_DAILY_TOKENS)
      refuse(
        'daily_limit',
        `You have used today's ${this.config.PDF_AI_DAILY_TOKENS.toLocaleString('en')} AI tokens. The limit resets at midnight UTC.`,
      );
    if (calls + needed > max) {
      refuse(
        'daily_limit',
        calls >= max
          ? `You have used today's ${max} AI model calls. The limit resets at midnight UTC.`
          : `This ${what} needs ${needed} model calls and you have ${max - calls} of today's ${max} left. The limit resets at midnight UTC.`,
      );
    }
  }

  /** Reads the file's text, finds the provider and runs `body` with an `ask` that counts each call against the user's limits. */
  private async run<T extends object>(
    body: (ask: (prompt: string) => Promise<string>, pages: PageText[], pageCount: number) => Promise<T>,
    user: PdfAiUser,
    fileId: string,
  ): Promise<(T & { ok: true; pageCount: number } & Usage) | PdfAiFailure> {
    try {
      const provider = await this.provider(user.workspace_id);
      if (!provider) refuse('not_configured', notConfiguredMessage());
      const found = await this.files.info(fileId);
      const bytes = found.status === 'ok' ? await this.files.content(found.file) : undefined;
      if (!bytes)
        return refuse(
          'file_gone',
          'That file is no longer available (uploads are kept for a limited time). Upload it again.',
        );
      const text = await extractPageTexts(bytes);
      if (!text.ok) {
        if (text.reason === 'too_much_text')
          return refuse(
            'too_long',
            'This document has more text than the AI features read from one file (16 MB). Split it into smaller PDFs first.',
          );
        return refuse(
          text.reason,
          text.reason === 'no_text_layer'
            ? 'This PDF has no text layer (a scan or photos of pages): run OCR first (the OCR tool makes its text readable), then try again with the result.'
            : 'This file could not be read as a PDF (damaged, or protected by a password). Remove the password or repair it first.',
        );
      }
      const pages = numbered(text.pages);
      const used: Usage = { calls: 0, tokens: 0, model: '' };
      const ask = async (prompt: string): Promise<string> => {
        if (!(await this.usage.takeCall(user.id, this.config.PDF_AI_DAILY_CALLS, this.config.PDF_AI_DAILY_TOKENS)))
          refuse('daily_limit', "You have reached today's AI limit. The limit resets at midnight UTC.");
        used.calls++;
        try {
          const answer = await provider!.ask({ prompt, webSearch: false });
          const tokens = answer.usage.inputTokens + answer.usage.outputTokens;
          used.tokens += tokens;
          used.model = answer.model;
          await this.usage.addTokens(user.id, tokens);
          return answer.text;
        } catch (e) {
          used.calls--;
          await this.usage.refundCall(user.id);
          if (!(e instanceof AiProviderError)) throw e;
          return refuse(
            'provider_failed',
            `The AI platform did not answer: ${e.message} Nothing else was done; try again later.`,
          );
        }
      };
      const result = await body(ask, pages, text.pages.length);
      return { ...result, ok: true, pageCount: text.pages.length, ...used };
    } catch (e) {
      if (e instanceof Refused) return e.failure;
      throw e;
    }
  }
}

/** What the pages say when no AI platform is configured. */
export function notConfiguredMessage(): string {
  return 'No AI platform is configured for this workspace. An administrator enables one with OPENAI_COMPATIBLE_BASE_URL and OPENAI_COMPATIBLE_MODEL (any OpenAI-compatible endpoint, e.g. a self-hosted model), OPENAI_API_KEY, ANTHROPIC_API_KEY or GEMINI_API_KEY on the instance, or with a workspace key in Settings > AI providers.';
}
