import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { chatCompletion } from '../ai/fixtures/openai-compatible';
import { ProviderServer, ReceivedRequest, Scripted } from '../ai/provider-servers';
import { AiTestApp, startAiTestApp } from '../utils/ai-test-app';
import { createTestApp, TestApp } from '../utils/test-app';
import { signedInUser } from '../utils/web-users';
import { WebClient, WebResponse } from '../web/web-client';

/** Filler making each page about 200 tokens, so a 500-token budget splits the document by pages. */
const FILLER = 'This paragraph is filler text that repeats to give the page some length for the budget. ';
/** The fixture's facts and the pages they are on. */
const PAGES = [
  'Annual report of Example Corp. Introduction to the year.',
  'Staff and culture: the teams grew and hired new people.',
  'Finance: revenue grew to 12 million euros in 2025.',
  'Premises: the head office moved to Lisbon in March.',
];

async function fixturePdf(texts = PAGES): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const text of texts) {
    const page = doc.addPage([595, 842]);
    page.drawText(text, { x: 50, y: 780, size: 12, font });
    for (let l = 0; l < 8; l++) page.drawText(FILLER.slice(0, 90), { x: 50, y: 740 - l * 16, size: 10, font });
  }
  return doc.save();
}

/** The [Page N] blocks of a prompt, as the model sees them. */
const blocks = (prompt: string): { page: number; text: string }[] =>
  [...prompt.matchAll(/\[Page (\d+)\]\n([\s\S]*?)(?=\n\n\[Page \d+\]|\n<\/document>)/g)].map((m) => ({
    page: Number(m[1]),
    text: m[2],
  }));
const pageWith = (prompt: string, word: string): number | undefined =>
  blocks(prompt).find((b) => b.text.includes(word))?.page;

/**
 * A model on the Chat Completions wire format that answers from the pages in its prompt: it cites
 * the [Page N] marker the fact sits under, so the page numbers in the answers are the fixture's
 * only when Beacon labelled the pages right.
 */
function model(req: ReceivedRequest): Scripted {
  const prompt = ((req.body.messages as { content: string }[] | undefined) ?? []).map((m) => m.content).join('\n');
  let content: string;
  if (prompt.startsWith('Translate')) {
    content = blocks(prompt)
      .map((b) => `[Page ${b.page}]\nÜbersetzt 翻译 Перевод: ${b.text.split('\n')[0]}`)
      .join('\n\n');
  } else if (prompt.startsWith('Summarise')) {
    const facts = [
      ['revenue', 'revenue'],
      ['Lisbon', 'the move to Lisbon'],
    ].flatMap(([w, say]) => {
      const p = pageWith(prompt, w);
      return p ? [`- ${say} [p. ${p}]`] : [];
    });
    content = facts.length ? facts.join('\n') : '- general introduction';
  } else if (prompt.startsWith('Below are summaries')) {
    content = `Example Corp's year:\n${[...prompt.matchAll(/^- .*\[p\. \d+\]$/gm)].map((m) => m[0]).join('\n')}`;
  } else {
    const question = /<question>\n([\s\S]*?)\n<\/question>/.exec(prompt)?.[1] ?? '';
    const p = /office/i.test(question) ? pageWith(prompt, 'Lisbon') : undefined;
    content = p ? `The head office moved to Lisbon in March [p. ${p}].` : 'The document does not answer this question.';
  }
  return {
    json: {
      ...chatCompletion,
      model: 'local-model',
      choices: [
        { ...chatCompletion.choices[0], message: { role: 'assistant', content, refusal: null, annotations: [] } },
      ],
      usage: { ...chatCompletion.usage, prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 },
    },
  };
}

describe('PDF AI: summary, chat and translation (e2e)', () => {
  let world: AiTestApp;
  let server: ProviderServer;
  let t: TestApp;
  let alice: WebClient;
  let bob: WebClient;
  let aliceId: string;
  let fileId: string;
  let pdf: Uint8Array;

  const upload = async (c: WebClient, bytes: Uint8Array): Promise<string> => {
    await c.get('/pdf/ai');
    const form = new FormData();
    form.set('file', new Blob([Buffer.from(bytes)], { type: 'application/pdf' }), 'report.pdf');
    const res = await c.request('POST', `/pdf/ai/upload?_csrf=${encodeURIComponent(c.csrf())}`, { body: form });
    expect(res.status).toBe(200);
    return /name="file_id" value="([^"]+)"/.exec(res.text)![1];
  };
  const text = (html: string): string =>
    html
      .replace(/<[^>]+>/g, ' ')
      .replace(/&#39;/g, "'")
      .replace(/&quot;/g, '"')
      .replace(/\s+/g, ' ');
  /** A summary page: 200, "Summary of `pages` pages" and each of `says`. */
  const expectSummary = (res: WebResponse, pages: number, says: string[]): void => {
    expect(res.status).toBe(200);
    const words = text(res.text);
    expect(words).toContain(`Summary of ${pages} pages`);
    for (const s of says) expect(words).toContain(s);
  };

  beforeAll(async () => {
    world = await startAiTestApp({
      handler: model,
      env: (url) => ({
        OPENAI_COMPATIBLE_BASE_URL: `${url}/v1`,
        OPENAI_COMPATIBLE_MODEL: 'local-model',
        PDF_AI_CONTEXT_TOKENS: '500',
        PDF_AI_DAILY_CALLS: '10',
      }),
      workspace: 'pdfai',
      users: { member: ['alice@example.com', 'bob@example.com'] },
    });
    ({ t, server } = world);
    const [a, b] = world.users;
    aliceId = a.user.id;
    alice = a.client;
    bob = b.client;
    pdf = await fixturePdf();
    fileId = await upload(alice, pdf);
  }, 60_000);

  afterAll(async () => world?.close());

  beforeEach(() => {
    server.requests.length = 0;
  });

  it('is for signed-in users only', async () => {
    const res = await WebClient.of(t.server).get('/pdf/ai');
    expect(res.status).toBe(303);
    expect(res.location).toMatch(/^\/signin/);
  });

  it('refuses an upload whose query string has no CSRF token, before reading it', async () => {
    await alice.get('/pdf/ai');
    const form = new FormData();
    form.set('file', new Blob([Buffer.from(pdf)], { type: 'application/pdf' }), 'report.pdf');
    const res = await alice.request('POST', '/pdf/ai/upload', { body: form });
    expect(res.status).toBe(403);
    expect(res.text).toContain('security token');
  });

  it('summarises a long document part by part, citing the pages the facts are on', async () => {
    const res = await alice.post('/pdf/ai/summarize', { file_id: fileId });
    expectSummary(res, 4, [
      'revenue [p. 3]',
      'the move to Lisbon [p. 4]',
      'Pages cited: 3, 4.',
      '3 model calls, 360 tokens (local-model)',
    ]);
    // 4 pages of ~200 tokens in a 500-token budget: two parts, then the combining call.
    expect(server.requests).toHaveLength(3);
  });

  it('answers a question from the relevant pages with page references, and says when the document does not answer', async () => {
    const res = await alice.post('/pdf/ai/chat', { file_id: fileId, question: 'Where did the head office move?' });
    expect(res.status).toBe(200);
    expect(server.requests).toHaveLength(1);
    const prompt = (server.last.body.messages as { content: string }[])[0].content;
    expect(blocks(prompt).map((b) => b.page)).toContain(4);
    expect(text(res.text)).toContain('The head office moved to Lisbon in March [p. 4].');
    expect(text(res.text)).toContain('Pages cited: 4.');

    const none = await alice.post('/pdf/ai/chat', { file_id: fileId, question: 'Who is the chief executive?' });
    expect(none.status).toBe(200);
    expect(text(none.text)).toContain('The document does not answer this question.');
    expect(text(none.text)).toMatch(/The pages read \([\d, ]+ of 4\) do not answer it\./);
  });

  it('refuses an oversized question clearly, without asking the model', async () => {
    const long = await alice.post('/pdf/ai/chat', { file_id: fileId, question: 'why '.repeat(750) });
    expect(long.status).toBe(400);
    expect(text(long.text)).toContain('Your question is 2,999 characters long; ask in at most 2,000.');
    const huge = await alice.post('/pdf/ai/chat', { file_id: fileId, question: 'x'.repeat(100 * 1024) });
    expect(huge.status).toBe(413);
    expect(server.requests).toHaveLength(0);
  });

  it('translates into a chosen language, downloadable as text and as a PDF in fonts for any script', async () => {
    await alice.get(`/pdf/ai?file_id=${fileId}`);
    const res = await alice.post('/pdf/ai/translate', { file_id: fileId, language: 'German' });
    expect(res.status).toBe(200);
    expect(server.requests).toHaveLength(4); // one page per call in half the budget
    expect(text(res.text)).toContain('Translation into German');
    const links = [...res.text.matchAll(/href="(\/pdf\/ai\/translations\/[^"]+)"/g)].map((m) => m[1]);
    expect(links).toHaveLength(2);
    const get = (path: string, c = alice) => fetch(alice.origin + path, { headers: { cookie: c.cookieHeader() } });
    const txt = await get(links.find((l) => l.endsWith('.txt'))!);
    expect(txt.status).toBe(200);
    const body = await txt.text();
    expect(body).toContain('[Page 4]\nÜbersetzt 翻译 Перевод: Premises: the head office moved to Lisbon in March.');
    const pdfRes = await get(links.find((l) => l.endsWith('.pdf'))!);
    expect(pdfRes.headers.get('content-type')).toBe('application/pdf');
    const dir = mkdtempSync(join(tmpdir(), 'pdfai-'));
    try {
      writeFileSync(join(dir, 't.pdf'), Buffer.from(await pdfRes.arrayBuffer()));
      const read = execFileSync('pdftotext', [join(dir, 't.pdf'), '-']).toString();
      expect(read).toContain('Page 4');
      expect(read).toMatch(/Übersetzt\s+翻译\s+Перевод: Premises/);
      expect(execFileSync('pdffonts', [join(dir, 't.pdf')]).toString()).toMatch(/NotoSans/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    // Another user cannot download it.
    expect((await get(links[0], bob)).status).toBe(404);
  });

  it('counts calls and tokens per user and day, and refuses beyond the limit before asking the model', async () => {
    const [row] = await t.dataSource.query<Array<{ calls: number; tokens: number }>>(
      'SELECT calls, tokens FROM pdf_ai_usage WHERE user_id = $1',
      [aliceId],
    );
    expect(row).toEqual({ calls: 9, tokens: 9 * 120 });
    // Bob has his own count; his file is his upload (the prompt carries his pages only).
    const bobFile = await upload(
      bob,
      await fixturePdf(PAGES.map((p) => p.replace('Lisbon', 'Porto').replace('Example Corp', 'Bob Ltd'))),
    );
    server.requests.length = 0;
    expect((await bob.post('/pdf/ai/translate', { file_id: bobFile, language: 'French' })).status).toBe(200);
    expect((await bob.post('/pdf/ai/translate', { file_id: bobFile, language: 'French' })).status).toBe(200);
    const prompts = server.requests.map((r) => JSON.stringify(r.body));
    expect(prompts).toHaveLength(8);
    expect(prompts.join('\n')).toContain('Porto');
    for (const p of prompts) expect(p).not.toMatch(/Lisbon|Example Corp/);
    server.requests.length = 0;
    const over = await bob.post('/pdf/ai/summarize', { file_id: bobFile });
    expect(over.status).toBe(429);
    expect(text(over.text)).toContain(
      "This summary needs 3 model calls and you have 2 of today's 10 left. The limit resets at midnight UTC.",
    );
    expect(server.requests).toHaveLength(0);
    // Alice has 1 call left, then none.
    expect((await alice.post('/pdf/ai/chat', { file_id: fileId, question: 'Where is the office?' })).status).toBe(200);
    const none = await alice.post('/pdf/ai/chat', { file_id: fileId, question: 'Where is the office?' });
    expect(none.status).toBe(429);
    expect(text(none.text)).toContain("You have used today's 10 AI model calls.");
    // Tokens: a user at the token limit is refused too.
    await t.dataSource.query('UPDATE pdf_ai_usage SET calls = 0, tokens = 500000 WHERE user_id = $1', [aliceId]);
    const tokens = await alice.post('/pdf/ai/chat', { file_id: fileId, question: 'Where is the office?' });
    expect(tokens.status).toBe(429);
    expect(text(tokens.text)).toContain("You have used today's 500,000 AI tokens.");
  });

  it('says when the platform fails, and gives the call back', async () => {
    await t.dataSource.query('UPDATE pdf_ai_usage SET calls = 0, tokens = 0 WHERE user_id = $1', [aliceId]);
    await alice.get(`/pdf/ai?file_id=${fileId}`);
    server.next({ status: 503, json: { error: { message: 'model is loading', type: 'server_error' } } });
    const res = await alice.post('/pdf/ai/chat', { file_id: fileId, question: 'Where did the head office move?' });
    expect(res.status).toBe(502);
    expect(text(res.text)).toContain('The AI platform did not answer');
    expect(server.requests).toHaveLength(1);
    const [row] = await t.dataSource.query<Array<{ calls: number; tokens: number }>>(
      'SELECT calls, tokens FROM pdf_ai_usage WHERE user_id = $1',
      [aliceId],
    );
    expect(row).toEqual({ calls: 0, tokens: 0 });
  });

  it('says to run OCR first for a PDF without a text layer', async () => {
    const doc = await PDFDocument.create();
    doc.addPage([200, 200]);
    const scan = await upload(alice, await doc.save());
    await t.dataSource.query('UPDATE pdf_ai_usage SET calls = 0, tokens = 0 WHERE user_id = $1', [aliceId]);
    const res = await alice.post('/pdf/ai/summarize', { file_id: scan });
    expect(res.status).toBe(422);
    expect(text(res.text)).toContain('This PDF has no text layer');
    expect(text(res.text)).toContain('run OCR first');
    expect(server.requests).toHaveLength(0);
  });

  it('runs the OCR of a scan first on one click, shows its progress, then summarises the text it read', async () => {
    // A "scan": the fixture's first and last pages drawn, rendered to grey 200 dpi images, each image alone on its page.
    const dir = mkdtempSync(join(tmpdir(), 'pdf-ai-scan-'));
    let scanBytes: Uint8Array;
    try {
      writeFileSync(join(dir, 'text.pdf'), await fixturePdf([PAGES[0], PAGES[3]]));
      execFileSync('pdftoppm', ['-r', '200', '-gray', '-png', join(dir, 'text.pdf'), join(dir, 'scan')]);
      const scan = await PDFDocument.create();
      for (const n of [1, 2]) {
        const image = await scan.embedPng(readFileSync(join(dir, `scan-${n}.png`)));
        scan.addPage([595, 842]).drawImage(image, { x: 0, y: 0, width: 595, height: 842 });
      }
      scanBytes = await scan.save();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const scanId = await upload(alice, scanBytes);
    await t.dataSource.query('UPDATE pdf_ai_usage SET calls = 0, tokens = 0 WHERE user_id = $1', [aliceId]);

    // The refusal offers the same request after an OCR, in one button.
    const refused = await alice.post('/pdf/ai/summarize', { file_id: scanId });
    expect(refused.status).toBe(422);
    expect(refused.text).toContain('action="/pdf/ai/ocr"');
    expect(text(refused.text)).toContain('Run OCR, then summarise it');
    const started = await alice.post('/pdf/ai/ocr', { file_id: scanId, then: 'summarize' });
    expect(started.status).toBe(303);
    const waiting = started.location!;
    expect(waiting).toMatch(/^\/pdf\/ai\/ocr\/[A-Za-z0-9_-]{22}$/);
    // Bob cannot see Alice's request.
    expect((await bob.get(waiting)).status).toBe(404);

    // The page shows the OCR's progress (and asks again by itself) until the summary is there.
    let page = await alice.get(waiting);
    const seen = new Set<string>();
    for (let i = 0; page.text.includes('data-poll=') && i < 300; i++) {
      expect(page.status).toBe(200);
      seen.add(/Reading the scanned pages \(OCR\)|waits for its turn/.exec(page.text)?.[0] ?? '');
      await new Promise((r) => setTimeout(r, 500));
      page = await alice.get(waiting);
    }
    expect(seen.size).toBeGreaterThan(0);
    expectSummary(page, 2, ['the move to Lisbon [p. 2]', 'report.pdf is a scan: OCR read its pages first']);
    // Asked once: the page again shows the same summary without another model call.
    const calls = server.requests.length;
    expect(calls).toBeGreaterThan(0);
    expect(text((await alice.get(waiting)).text)).toContain('the move to Lisbon [p. 2]');
    expect(server.requests).toHaveLength(calls);
  }, 240_000);
});

describe('PDF AI without a configured platform (e2e)', () => {
  let t: TestApp;
  afterAll(async () => t?.close());

  it('says which setting enables the features', async () => {
    t = await createTestApp({
      env: {
        OPENAI_API_KEY: '',
        OPENAI_COMPATIBLE_BASE_URL: '',
        ANTHROPIC_API_KEY: '',
        GEMINI_API_KEY: '',
        PERPLEXITY_API_KEY: '',
      },
    });
    await t.createKey('pdfai2');
    const c = (await signedInUser(t, 'pdfai2', 'carol@example.com', 'member')).client;
    const res = await c.get('/pdf/ai');
    expect(res.status).toBe(200);
    expect(res.text).toContain('No AI platform is configured for this workspace');
    expect(res.text).toContain('OPENAI_COMPATIBLE_BASE_URL');
    expect(res.text).not.toContain('enctype="multipart/form-data"');
  }, 60_000);
});
