import { apportion, costLabel, pageBreakdown, pageCostsOf, siteBreakdown } from './breakdown';
import { IMPACTS, pageScore, siteScore } from './score';

/** A small deterministic generator (no flaky randomness). */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

describe('score breakdown', () => {
  it('one failed rule costs its exact share; the label reads "fix <rule>: +N"', () => {
    // critical 10 fails; serious 7, moderate 3, minor 1 pass: score 52, cost 48
    const violations = [{ id: 'image-alt', impact: 'critical' as const }];
    const passes = [
      { id: 'color-contrast', impact: 'serious' as const },
      { id: 'meta-viewport', impact: 'moderate' as const },
      { id: 'server-side-image-map', impact: 'minor' as const },
    ];
    const score = pageScore(violations, passes);
    const b = pageBreakdown(violations, passes, score);
    expect(b).toEqual([{ id: 'image-alt', impact: 'critical', weight: 10, points: 48 }]);
    expect(costLabel(b[0])).toBe('fix image-alt: +48');
  });

  it('costs add up to 100 - score for many pages, largest first', () => {
    const rnd = lcg(7);
    for (let n = 0; n < 500; n++) {
      const rules = Array.from({ length: 1 + Math.floor(rnd() * 30) }, (_, i) => ({
        id: `r${i}`,
        impact: IMPACTS[Math.floor(rnd() * 4)],
      }));
      const violations = rules.filter(() => rnd() < 0.4);
      const passes = rules.filter((r) => !violations.includes(r));
      const score = pageScore(violations, passes);
      const b = pageBreakdown(violations, passes, score);
      expect(b.reduce((s, c) => s + c.points, 0)).toBe(100 - score);
      expect(b).toHaveLength(violations.length);
      for (const c of b) expect(c.points).toBeGreaterThanOrEqual(0);
      for (let i = 1; i < b.length; i++) expect(b[i - 1].points).toBeGreaterThanOrEqual(b[i].points);
    }
  });

  it('a heavier rule never costs less than a lighter one on the same page', () => {
    const violations = [
      { id: 'a', impact: 'minor' as const },
      { id: 'b', impact: 'critical' as const },
      { id: 'c', impact: 'serious' as const },
    ];
    const passes = [{ id: 'd', impact: 'moderate' as const }];
    const b = pageBreakdown(violations, passes, pageScore(violations, passes));
    expect(b.map((c) => c.id)).toEqual(['b', 'c', 'a']);
  });

  it('report costs (mean of page scores) add up to 100 - report score', () => {
    const rnd = lcg(11);
    for (let n = 0; n < 200; n++) {
      const pages = Array.from({ length: 1 + Math.floor(rnd() * 5) }, () => {
        const rules = Array.from({ length: 1 + Math.floor(rnd() * 20) }, (_, i) => ({
          id: `r${i}`,
          impact: IMPACTS[Math.floor(rnd() * 4)],
        }));
        const violations = rules.filter(() => rnd() < 0.3);
        const passes = rules.filter((r) => !violations.includes(r));
        const score = pageScore(violations, passes);
        return { score, passes, scoreBreakdown: pageBreakdown(violations, passes, score) };
      });
      const score = siteScore(pages.map((p) => p.score));
      const b = siteBreakdown(pages.map(pageCostsOf), score);
      expect(b.reduce((s, c) => s + c.points, 0)).toBe(100 - score);
      for (const c of b) expect(c.pages).toBe(pages.filter((p) => p.scoreBreakdown.some((x) => x.id === c.id)).length);
    }
  });

  it('apportion: floors plus largest remainders, or gives back from the smallest when rounding left less', () => {
    expect(apportion([33.4, 33.3, 33.3], 100)).toEqual([34, 33, 33]);
    expect(apportion([0.6, 0.6], 0)).toEqual([0, 0]);
    expect(apportion([1.2, 2.9], 3)).toEqual([1, 2]);
    expect(apportion([], 0)).toEqual([]);
  });
});
