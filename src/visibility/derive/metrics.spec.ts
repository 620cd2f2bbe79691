import { scan1, SCAN1_GAPS, scan2 } from '../../../test/visibility/fixtures';
import { parseImportFile } from '../import/import-schema';
import { deriveScan, gradeOf, MIN_GRADE_SAMPLE, percent } from './metrics';

describe('rates and grades', () => {
  it('percent rounds to 0.1 and has no value without a sample', () => {
    expect(percent(1, 3)).toBe(33.3);
    expect(percent(2, 3)).toBe(66.7);
    expect(percent(0, 5)).toBe(0);
    expect(percent(0, 0)).toBeNull();
  });

  it('grades on a scale calibrated for low mention rates', () => {
    expect(gradeOf(40, 100)).toEqual({ grade: 'A', grade_reason: null });
    expect(gradeOf(39, 100).grade).toBe('B');
    expect(gradeOf(25, 100).grade).toBe('B');
    expect(gradeOf(24, 100).grade).toBe('C');
    expect(gradeOf(10, 100).grade).toBe('C');
    expect(gradeOf(9, 100).grade).toBe('D');
    expect(gradeOf(3, 100).grade).toBe('D');
    expect(gradeOf(2, 100).grade).toBe('F');
    expect(gradeOf(0, 100).grade).toBe('F');
    // The grade uses the exact rate, not the rounded one: 2/20 = 10 % exactly is C; 199/2000 = 9.95 % is D.
    expect(gradeOf(2, 20).grade).toBe('C');
    expect(gradeOf(199, 2000).grade).toBe('D');
  });

  it('gives no grade below the minimum sample', () => {
    expect(gradeOf(19, MIN_GRADE_SAMPLE - 1)).toEqual({ grade: null, grade_reason: 'insufficient_data' });
    expect(gradeOf(0, 0)).toEqual({ grade: null, grade_reason: 'insufficient_data' });
    expect(gradeOf(20, MIN_GRADE_SAMPLE).grade).toBe('A');
  });
});

describe('deriveScan (hand-computed on test/visibility/fixtures.ts scan2)', () => {
  const d = deriveScan(parseImportFile(scan2));

  it('detects mentions per answer; failed answers get none', () => {
    expect(d.answers.map((a) => a.brandPosition)).toEqual([7, null, null, null, null, 0]);
    expect(d.answers[0].competitorMentions).toEqual([{ name: 'Globex', position: 13 }]);
    expect(d.answers[1].competitorMentions.map((c) => c.name)).toEqual(['Globex', 'Initech']);
    expect(d.answers[3].ok).toBe(false);
    expect(d.answers[0].citations).toEqual(['https://g2.com/crm', 'https://acme.com/pricing']);
    expect(d.answers.map((a) => a.citesOwned)).toEqual([true, false, false, false, false, false]);
  });

  it('mention rate, share of voice and grade over successful answers only', () => {
    const s = d.summary;
    expect(s.answers).toEqual({ total: 6, successful: 5, failed: 1 });
    expect(s.mentions).toBe(2);
    expect(s.mention_rate).toBe(40); // 2 / 5
    expect(s.share_of_voice).toBe(28.6); // 2 / (2 + 3 Globex + 2 Initech)
    expect(s.grade).toBeNull();
    expect(s.grade_reason).toBe('insufficient_data');
  });

  it('funnel: answers -> cited -> owned cited -> mentioned and owned cited', () => {
    expect(d.summary.funnel).toEqual({
      answers: 5,
      with_citations: 5,
      with_owned_citation: 1,
      mentioned_with_owned_citation: 1,
      citation_rate: 100,
      owned_citation_rate: 20,
      mentioned_with_owned_citation_rate: 20,
    });
  });

  it('per platform and per competitor', () => {
    const [chatgpt, perplexity] = d.summary.platforms;
    expect(chatgpt).toMatchObject({
      platform: 'chatgpt',
      answers: 3,
      failed: 0,
      mentions: 1,
      mention_rate: 33.3,
      share_of_voice: 33.3,
    });
    expect(perplexity).toMatchObject({
      platform: 'perplexity',
      answers: 2,
      failed: 1,
      mentions: 1,
      mention_rate: 50,
      share_of_voice: 25,
    });
    const [globex, initech] = d.summary.competitors;
    expect(globex).toMatchObject({
      name: 'Globex',
      domains: ['globex.com'],
      answers: 5,
      mentions: 3,
      mention_rate: 60,
      share_of_voice: 42.9,
    });
    expect(globex.platforms).toEqual([
      { platform: 'chatgpt', answers: 3, mentions: 2, mention_rate: 66.7 },
      { platform: 'perplexity', answers: 2, mentions: 1, mention_rate: 50 },
    ]);
    expect(initech).toMatchObject({ mentions: 2, mention_rate: 40, share_of_voice: 28.6 });
  });

  it('sources by registrable domain with categories, most cited first', () => {
    expect(d.sources.map((s) => [s.domain, s.category, s.citations, s.answers])).toEqual([
      ['g2.com', 'review', 2, 2],
      ['reddit.com', 'ugc', 2, 2],
      ['acme.com', 'owned', 1, 1],
      ['globex.com', 'competitor', 1, 1],
      ['wikipedia.org', 'reference', 1, 1],
      ['youtube.com', 'video', 1, 1],
    ]);
    expect(d.sources[1]).toMatchObject({ prompts: 2, urls: 1, platforms: ['chatgpt', 'perplexity'] });
  });

  it('URL statistics on normalised URLs', () => {
    expect(d.urls[0]).toEqual({
      url: 'https://g2.com/crm',
      domain: 'g2.com',
      category: 'review',
      citations: 2,
      answers: 2,
      prompts: 1,
      platforms: ['chatgpt', 'perplexity'],
    });
    expect(d.urls.map((u) => u.url)).toContain('https://en.wikipedia.org/wiki/CRM');
  });

  it('gaps: competitor mentioned, brand absent, and never cited where the brand is mentioned', () => {
    expect(d.gaps).toEqual(SCAN1_GAPS);
    // g2.com/crm is cited by answer 1 (competitors only) but also by answer 0 (brand): not a gap.
    expect(d.gaps.map((g) => g.url)).not.toContain('https://g2.com/crm');
    expect(d.summary.counts).toEqual({ sources: 6, urls: 6, gaps: 3 });
  });

  it('per-prompt figures', () => {
    expect(d.prompts).toEqual([
      { promptId: 'p1', answers: 2, mentions: 1 },
      { promptId: 'p2', answers: 1, mentions: 0 },
      { promptId: 'p3', answers: 2, mentions: 1 },
    ]);
  });

  it('a scan without successful answers has null rates, not zeros', () => {
    const s = deriveScan(
      parseImportFile({
        ...scan1,
        scan: { ...scan1.scan, answers: [{ ...scan1.scan.answers[0], status: 'timeout' }] },
      }),
    ).summary;
    expect(s.mention_rate).toBeNull();
    expect(s.share_of_voice).toBeNull();
    expect(s.funnel.citation_rate).toBeNull();
    expect(s.counts.sources).toBe(0);
  });
});
