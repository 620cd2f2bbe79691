import { PDFDocument } from 'pdf-lib';
import { AccountsService } from '../../src/accounts/accounts.service';
import { QuotaService } from '../../src/pdf-tools/quota/quota.service';
import { createTestApp, TestApp } from '../utils/test-app';
import { fileIdsOf, uploadThroughForm, WebClient } from './web-client';

const PASSWORD = 'a long enough password';

/** The quota line's text, tags dropped. */
const quotaText = (page: string): string =>
  (/<p class="notice" id="quota">([\s\S]*?)<\/p>/.exec(page)?.[1] ?? '').replace(/<[^>]+>/g, '').replace(/\s+/g, ' ');
/** The error summary's text, tags dropped. */
const errorText = (page: string): string =>
  (/<div class="error-summary"[\s\S]*?<\/div>/.exec(page)?.[0] ?? '').replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

/**
 * Issue #23 item 3: a signed-in website user has a higher daily limit per tool
 * (PDF_DAILY_LIMIT_SIGNED_IN), counted per account rather than per device, and each tool page
 * says which limit applies and how many runs are left. MCP quotas are unchanged.
 */
describe('PDF tools on the website: daily limits for visitors and signed-in users (e2e)', () => {
  let t: TestApp;
  let pdf: Uint8Array;

  beforeAll(async () => {
    t = await createTestApp({ env: { PDF_DAILY_LIMIT: '2', PDF_DAILY_LIMIT_SIGNED_IN: '4', PDF_MCP_DAILY_CAP: '2' } });
    const doc = await PDFDocument.create();
    doc.addPage([200, 200]);
    pdf = await doc.save();
  }, 60_000);

  afterAll(async () => {
    await t?.close();
  });

  const rotate = async (c: WebClient): Promise<{ status: number; text: string }> => {
    const up = await uploadThroughForm(c, 'rotate-pages', pdf, 'one.pdf');
    expect(up.status).toBe(200);
    return c.post('/pdf/rotate-pages', { file_id: fileIdsOf(up.text)[0], 'opt.angle': '90' });
  };

  it('a visitor: the per-device limit, the signed-in limit offered, refused past it', async () => {
    const c = WebClient.of(t.server);
    const page = await c.get('/pdf/rotate-pages');
    expect(quotaText(page.text)).toContain('2 of 2 runs of this tool left today on this device');
    expect(quotaText(page.text)).toContain('Sign up for 4 a day instead of 2.');
    expect(page.text).toContain('<a href="/signup">Sign up</a>');
    expect((await rotate(c)).status).toBe(200);
    const second = await rotate(c);
    expect(second.status).toBe(200);
    expect(quotaText(second.text)).toContain('0 of 2 runs');
    const third = await rotate(c);
    expect(third.status).toBe(429);
    expect(errorText(third.text)).toContain('You have used all 2 runs of this tool for today on this device.');
    // The index says it too, and links every page of the PDF site.
    const index = (await c.get('/pdf')).text;
    expect(index).toContain('<a href="/signup">sign up</a> for 4 a day instead.');
    for (const href of ['/pdf/images', '/pdf/ocr', '/pdf/ai', '/pdf/read-pdf'])
      expect(index).toContain(`href="${href}"`);
    // The conversion pages say the same.
    expect(quotaText((await c.get('/pdf/images')).text)).toContain('Sign up for 4 a day instead of 2.');
  }, 60_000);

  it('a signed-in user: the higher limit, counted per account on any device, shown on the page', async () => {
    await t.createKey('limits');
    const user = await t.app.get(AccountsService).createUser('limits', 'limits@example.com', 'member');
    const first = WebClient.of(t.server);
    await first.signIn(user.email, user.one_time_password, PASSWORD);
    const page = await first.get('/pdf/rotate-pages');
    expect(quotaText(page.text)).toContain('4 of 4 runs of this tool left today on your account');
    expect(quotaText(page.text)).toContain('Signed in: 4 a day.');
    expect(quotaText(page.text)).not.toContain('Sign up');
    for (let i = 0; i < 3; i++) expect((await rotate(first)).status).toBe(200);
    // Another device of the same account shares the count: one run left there.
    const second = WebClient.of(t.server);
    await second.signIn(user.email, PASSWORD);
    expect(quotaText((await second.get('/pdf/rotate-pages')).text)).toContain('1 of 4 runs');
    expect((await rotate(second)).status).toBe(200);
    const refused = await rotate(first);
    expect(refused.status).toBe(429);
    expect(errorText(refused.text)).toContain('You have used all 4 runs of this tool for today on your account.');
    expect((await first.get('/pdf')).text).toContain('Signed in: each tool runs 4 times a day on your account.');
    // Conversion pages show the signed-in limit too.
    const ocr = quotaText((await first.get('/pdf/ocr')).text);
    expect(ocr).toContain('4 of 4 runs');
    expect(ocr).toContain('Signed in: 4 a day.');
  }, 60_000);

  it('MCP keeps its own per-IP cap, untouched by the signed-in limit', async () => {
    const quota = t.app.get(QuotaService);
    expect((await quota.status('mcp', 'rotate_pages', '127.0.0.77')).limit).toBe(2);
    expect((await quota.status('mcp', 'rotate_pages', '127.0.0.77', undefined, 'some-user')).limit).toBe(2);
    expect((await quota.status('web', 'rotate_pages', '127.0.0.77', 'some-device')).limit).toBe(2);
    expect((await quota.status('web', 'rotate_pages', '127.0.0.77', 'some-device', 'some-user')).limit).toBe(4);
  });
});
