import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import type { Report, ReportNode, ReportPage } from '../report/report.types';
import { renderReportPdf } from './report-pdf';

const png = (width: number, height: number): Promise<Buffer> =>
  sharp({ create: { width, height, channels: 3, background: { r: 0, g: 200, b: 0 } } })
    .png()
    .toBuffer();

const rule = (id: string, nodes: ReportNode[]) => ({
  id,
  impact: 'serious' as const,
  help: `Rule ${id} must hold for every element on the page`,
  helpUrl: `https://dequeuniversity.com/rules/axe/4.10/${id}`,
  tags: ['wcag2a', 'wcag111'],
  disabilities: [],
  nodes,
});

/** A crawl report of two pages whose elements have crops of many shapes (small ones used to be enlarged over the next heading). */
async function fixture(): Promise<{ report: Report; images: Map<string, Buffer> }> {
  const images = new Map<string, Buffer>();
  const sizes: [number, number][] = [
    [152, 72],
    [60, 20],
    [1200, 90],
    [110, 600],
    [300, 140],
    [40, 40],
  ];
  let k = 0;
  const node = async (w: number, h: number): Promise<ReportNode> => {
    const url = `https://beacon.test/api/screenshots/${String(k++).padStart(16, 'A')}.png`;
    images.set(url, await png(w, h));
    return {
      html: `<img src="x${k}.png" class="logo">`,
      target: [`main > img:nth-child(${k})`],
      marker: k,
      screenshot: url,
      crop: { x: 0, y: 0, width: w, height: h },
    };
  };
  const page = async (i: number): Promise<ReportPage> => {
    const violations = [];
    for (let r = 0; r < 5; r++) {
      const nodes = [];
      for (const [w, h] of sizes) nodes.push(await node(w, h));
      violations.push(rule(`rule-${r}`, nodes));
    }
    const full = `https://beacon.test/api/screenshots/FULL${String(i).padStart(12, 'A')}.png`;
    images.set(full, await png(1280, 3000));
    return {
      url: `https://site.test/${i}`,
      finalUrl: `https://site.test/${i}`,
      score: 40,
      violations,
      incomplete: [rule('color-contrast', [])],
      passes: [],
      screenshot: { url: full, width: 1280, height: 3000, cut: false },
      timings: { navigationMs: 1, settleMs: 1, axeMs: 1, totalMs: 3 },
    };
  };
  const report: Report = {
    id: 'A'.repeat(32),
    url: 'https://site.test/0',
    crawl: true,
    score: 40,
    totalNodes: 60,
    violationTypes: 5,
    scannedAt: '2026-11-20T10:00:00.000Z',
    expiresAt: '2026-12-20T10:00:00.000Z',
    pages: [await page(0), await page(1)],
    meta: {
      engine: 'axe-core',
      axeVersion: '4.10.0',
      browser: 'Chromium',
      tags: ['wcag2a'],
      viewport: { width: 1280, height: 800 },
      userAgent: 'test',
      skipped: [],
      timings: { totalMs: 1 },
    },
  };
  return { report, images };
}

interface Box {
  page: number;
  top: number;
  left: number;
  width: number;
  height: number;
  text?: string;
}

function inTemp<T>(work: (dir: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'a11y-pdf-'));
  try {
    return work(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Positions of every image and text line on every page, as poppler's pdftohtml reads them (points, top-down). */
function layoutOf(pdf: Buffer): { images: Box[]; texts: Box[]; pageHeight: number } {
  return inTemp((dir) => {
    writeFileSync(join(dir, 'in.pdf'), pdf);
    execFileSync('pdftohtml', ['-xml', '-zoom', '1', '-q', '-nodrm', join(dir, 'in.pdf'), join(dir, 'out')]);
    const xml = readFileSync(join(dir, 'out.xml'), 'utf8');
    const images: Box[] = [];
    const texts: Box[] = [];
    let pageHeight = 0;
    for (const p of xml.matchAll(/<page number="(\d+)"[^>]*height="([\d.]+)"[^>]*>([\s\S]*?)<\/page>/g)) {
      pageHeight = Number(p[2]);
      for (const m of p[3].matchAll(
        /<(image|text) top="([-\d.]+)" left="([-\d.]+)" width="([-\d.]+)" height="([-\d.]+)"[^>]*?(?:\/>|>([\s\S]*?)<\/text>)/g,
      )) {
        const box = {
          page: Number(p[1]),
          top: Number(m[2]),
          left: Number(m[3]),
          width: Number(m[4]),
          height: Number(m[5]),
          text: m[6],
        };
        (m[1] === 'image' ? images : texts).push(box);
      }
    }
    return { images, texts, pageHeight };
  });
}

const overlaps = (a: Box, b: Box): boolean =>
  a.page === b.page &&
  a.left < b.left + b.width &&
  b.left < a.left + a.width &&
  a.top < b.top + b.height &&
  b.top < a.top + a.height;

describe('the audit PDF', () => {
  let pdf: Buffer;
  beforeAll(async () => {
    const { report, images } = await fixture();
    pdf = await renderReportPdf(report, 'https://beacon.test/r/x', { images });
    if (process.env.KEEP_PDF) writeFileSync(process.env.KEEP_PDF, pdf);
  });

  it('is a tagged PDF with a language and a displayed title', () => {
    const info = execFileSync('pdfinfo', ['-'], { input: pdf }).toString();
    expect(info).toMatch(/^Tagged:\s+yes$/m);
    expect(info).toMatch(/^Title:\s+Accessibility audit: https:\/\/site.test\/0$/m);
    const raw = pdf.toString('latin1');
    expect(raw).toMatch(/\/Lang \(en\)/);
    expect(raw).toMatch(/\/DisplayDocTitle true/);
  });

  it('has headings, paragraphs, lists and figures with alternative text in its structure tree', () => {
    // the structure elements, uncompressed by qpdf
    const qdf = inTemp((dir) => {
      writeFileSync(join(dir, 'in.pdf'), pdf);
      execFileSync('qpdf', ['--qdf', '--object-streams=disable', join(dir, 'in.pdf'), join(dir, 'out.pdf')]);
      return readFileSync(join(dir, 'out.pdf')).toString('latin1');
    });
    const types = new Set([...qdf.matchAll(/\/S \/(\w+)/g)].map((m) => m[1]));
    expect(
      [...types].filter((t) => ['Document', 'H1', 'H2', 'H3', 'P', 'L', 'LI', 'LBody', 'Figure'].includes(t)).sort(),
    ).toEqual(['Document', 'Figure', 'H1', 'H2', 'H3', 'L', 'LBody', 'LI', 'P']);
    const alts = [...qdf.matchAll(/\/Alt \(((?:\\.|[^)\\])*)\)/g)].map((m) => m[1]);
    expect(alts).toHaveLength(2 * (5 * 6 + 1)); // every picture
    expect(alts).toContain('Screenshot of the failing element 1 \\(main > img:nth-child\\(1\\)\\), outlined');
    // page numbers are pagination artifacts, not content
    expect(/\/Artifact <<\s*\/Type \/Pagination\s*>> BDC/.test(qdf)).toBe(true);
  });

  it('no picture overlaps any text, and every picture is inside the page', () => {
    const { images, texts, pageHeight } = layoutOf(pdf);
    expect(images.length).toBe(2 * (5 * 6 + 1));
    const outside = images.filter((img) => img.top + img.height > pageHeight - 56 + 1);
    const overlapping = images.flatMap((img) => texts.filter((t) => overlaps(img, t)).map((t) => ({ img, t })));
    expect({ outside: outside.length, overlapping: overlapping.slice(0, 3), count: overlapping.length }).toEqual({
      outside: 0,
      overlapping: [],
      count: 0,
    });
  });
});
