import { compareScans, detectChanges, rateMoved, ScanFacts } from './changes';
import type { ScanSummary } from './metrics';
import { twoProportionTest } from './stats';

const facts = (o: Partial<ScanFacts>): ScanFacts => ({
  scan_id: 'x',
  grade: 'C',
  mention_rate: 10,
  mentions: 10,
  answers: 100,
  sources: [],
  gaps: [],
  ...o,
});
const moved = (x1: number, n1: number, x2: number, n2: number) =>
  rateMoved((x1 / n1) * 100, (x2 / n2) * 100, twoProportionTest(x1, n1, x2, n2));

describe('change detection', () => {
  it('the first scan has no changes', () => {
    expect(detectChanges(null, facts({}))).toBeNull();
  });

  it('a mention rate moves when the change is significant at 95 % and at least 1 point', () => {
    expect(moved(10, 100, 20, 100)).toBe(true); // p = 0.048
    expect(moved(10, 100, 18, 100)).toBe(false); // p = 0.10: noise on 100 answers
    expect(moved(1000, 10000, 1200, 10000)).toBe(true); // the same +2 points on 10,000 answers is real
    expect(moved(2, 4, 4, 4)).toBe(false); // 50 % -> 100 % of 4 answers
    expect(moved(20, 10000, 29, 10000)).toBe(false); // under one point
    expect(moved(20, 100, 8, 100)).toBe(true);
    expect(rateMoved(null, 10, null)).toBe(false);
  });

  it('reports grade, rate, sources and gaps changes', () => {
    const c = detectChanges(
      facts({
        scan_id: 's1',
        grade: 'D',
        mention_rate: 8,
        mentions: 16,
        answers: 200,
        sources: ['a.com', 'b.com'],
        gaps: ['https://x.com/1'],
      }),
      facts({
        scan_id: 's2',
        grade: 'C',
        mention_rate: 12.5,
        mentions: 50,
        answers: 400,
        sources: ['b.com', 'c.com', 'd.com'],
        gaps: ['https://x.com/1'],
      }),
    )!;
    expect(c.previous_scan_id).toBe('s1');
    // 16/200 -> 50/400: pooled 66/600, z = 1.66, p = 0.097: not significant, so the rate has not moved.
    expect(c.detected).toEqual(['grade_up', 'sources_gained', 'sources_lost']);
    expect(c.grade).toEqual({ from: 'D', to: 'C' });
    expect(c.mention_rate).toEqual({
      from: 8,
      to: 12.5,
      delta: 4.5,
      relative_change: 0.563,
      significant: false,
      p_value: expect.any(Number),
      moved: false,
    });
    expect(c.mention_rate.p_value).toBeCloseTo(0.097, 2);
    const up = detectChanges(
      facts({ mention_rate: 8, mentions: 16, answers: 200 }),
      facts({ mention_rate: 16, mentions: 64, answers: 400 }),
    )!;
    expect(up.detected).toEqual(['mention_rate_up']);
    expect(up.mention_rate).toMatchObject({ significant: true, moved: true });
    expect(c.sources).toEqual({ gained: ['c.com', 'd.com'], lost: ['a.com'], gained_count: 2, lost_count: 1 });
    expect(c.gaps).toEqual({ gained: [], lost: [], gained_count: 0, lost_count: 0 });
  });

  it('grade down, and a grade appearing from insufficient data', () => {
    expect(detectChanges(facts({ grade: 'B' }), facts({ grade: 'F' }))!.detected).toContain('grade_down');
    expect(detectChanges(facts({ grade: null }), facts({ grade: 'B' }))!.detected).toContain('grade_changed');
    expect(detectChanges(facts({}), facts({}))!.detected).toEqual([]);
  });

  it('caps the listed items at 25 but counts them all', () => {
    const many = Array.from({ length: 30 }, (_, i) => `d${String(i).padStart(2, '0')}.com`);
    const c = detectChanges(facts({ sources: [] }), facts({ sources: many }))!;
    expect(c.sources.gained).toHaveLength(25);
    expect(c.sources.gained_count).toBe(30);
  });
});

describe('week-over-week comparison', () => {
  const summary = (o: Partial<ScanSummary>): ScanSummary =>
    ({
      grade: 'C',
      grade_reason: null,
      answers: { total: 100, successful: 90, failed: 10 },
      mentions: 9,
      mention_rate: 10,
      share_of_voice: 20,
      funnel: { answers: 90, with_citations: 45, with_owned_citation: 5, citation_rate: 50, owned_citation_rate: 5.6 },
      platforms: [{ platform: 'chatgpt', mention_rate: 10, mentions: 9, answers: 90 }],
      competitors: [
        {
          name: 'Globex',
          mention_rate: 30,
          mentions: 27,
          answers: 90,
          platforms: [{ platform: 'chatgpt', mentions: 27, answers: 90 }],
        },
      ],
      counts: { sources: 1, urls: 1, gaps: 1 },
      ...o,
    }) as ScanSummary;

  it('is null with a single scan', () => {
    expect(compareScans({ scan_id: 'a', summary: summary({}) }, null)).toBeNull();
  });

  it('deltas latest minus previous; missing sides give null deltas', () => {
    const c = compareScans(
      {
        scan_id: 's2',
        summary: summary({
          grade: 'B',
          mentions: 24,
          mention_rate: 26.7,
          platforms: [
            { platform: 'chatgpt', mention_rate: 30, mentions: 9, answers: 30 },
            { platform: 'gemini', mention_rate: 5, mentions: 3, answers: 60 },
          ] as ScanSummary['platforms'],
        }),
      },
      { scan_id: 's1', summary: summary({}) },
    )!;
    expect(c.grade).toEqual({ latest: 'B', previous: 'C', direction: 'up' });
    // 9/90 -> 24/90: z = 2.87, p = 0.004.
    expect(c.mention_rate).toMatchObject({ latest: 26.7, previous: 10, delta: 16.7, significant: true });
    expect(c.mention_rate.p_value).toBeCloseTo(0.0041, 3);
    expect(c.answers).toEqual({ latest: 90, previous: 90, delta: 0, significant: null, p_value: null });
    // chatgpt 9/90 -> 9/30: z = 2.53, p = 0.011.
    expect(c.platforms).toEqual([
      { platform: 'chatgpt', latest: 30, previous: 10, delta: 20, significant: true, p_value: expect.any(Number) },
      { platform: 'gemini', latest: 5, previous: null, delta: null, significant: null, p_value: null },
    ]);
    expect(c.competitors).toEqual([
      { name: 'Globex', latest: 30, previous: 30, delta: 0, significant: false, p_value: 1 },
    ]);
  });
});
