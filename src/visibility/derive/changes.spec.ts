import { compareScans, detectChanges, rateMoved, ScanFacts } from './changes';
import type { ScanSummary } from './metrics';

const facts = (o: Partial<ScanFacts>): ScanFacts => ({ scan_id: 'x', grade: 'C', mention_rate: 10, sources: [], gaps: [], ...o });

describe('change detection', () => {
  it('the first scan has no changes', () => {
    expect(detectChanges(null, facts({}))).toBeNull();
  });

  it('a mention rate moves at 20 % relative and 1 point absolute', () => {
    expect(rateMoved(10, 12)).toBe(true); // +2 points, +20 %
    expect(rateMoved(10, 11.9)).toBe(false); // +19 %
    expect(rateMoved(50, 59)).toBe(false); // +18 %
    expect(rateMoved(2, 2.9)).toBe(false); // +45 % but under 1 point
    expect(rateMoved(0, 1)).toBe(true);
    expect(rateMoved(0, 0.5)).toBe(false);
    expect(rateMoved(10, 8)).toBe(true);
    expect(rateMoved(null, 10)).toBe(false);
  });

  it('reports grade, rate, sources and gaps changes', () => {
    const c = detectChanges(
      facts({ scan_id: 's1', grade: 'D', mention_rate: 8, sources: ['a.com', 'b.com'], gaps: ['https://x.com/1'] }),
      facts({ scan_id: 's2', grade: 'C', mention_rate: 12.5, sources: ['b.com', 'c.com', 'd.com'], gaps: ['https://x.com/1'] }),
    )!;
    expect(c.previous_scan_id).toBe('s1');
    expect(c.detected).toEqual(['grade_up', 'mention_rate_up', 'sources_gained', 'sources_lost']);
    expect(c.grade).toEqual({ from: 'D', to: 'C' });
    expect(c.mention_rate).toEqual({ from: 8, to: 12.5, delta: 4.5, relative_change: 0.563, moved: true });
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
      funnel: { citation_rate: 50, owned_citation_rate: 5 },
      platforms: [{ platform: 'chatgpt', mention_rate: 10 }],
      competitors: [{ name: 'Globex', mention_rate: 30 }],
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
          mention_rate: 26.2,
          platforms: [
            { platform: 'chatgpt', mention_rate: 30 },
            { platform: 'gemini', mention_rate: 5 },
          ] as ScanSummary['platforms'],
        }),
      },
      { scan_id: 's1', summary: summary({}) },
    )!;
    expect(c.grade).toEqual({ latest: 'B', previous: 'C', direction: 'up' });
    expect(c.mention_rate).toEqual({ latest: 26.2, previous: 10, delta: 16.2 });
    expect(c.answers).toEqual({ latest: 90, previous: 90, delta: 0 });
    expect(c.platforms).toEqual([
      { platform: 'chatgpt', latest: 30, previous: 10, delta: 20 },
      { platform: 'gemini', latest: 5, previous: null, delta: null },
    ]);
    expect(c.competitors).toEqual([{ name: 'Globex', latest: 30, previous: 30, delta: 0 }]);
  });
});
