import { disabilitiesOf } from './disabilities';
import { pageScore, scoreBand, siteScore } from './score';

describe('score (Lighthouse formula)', () => {
  it('weighs applied rules by impact: passed weight / applied weight', () => {
    // applied: critical(10, fails) + serious(7) + moderate(3) + minor(1) -> 11 / 21
    const score = pageScore(
      [{ id: 'image-alt', impact: 'critical' }],
      [
        { id: 'color-contrast', impact: 'serious' },
        { id: 'meta-viewport', impact: 'moderate' },
        { id: 'server-side-image-map', impact: 'minor' },
      ],
    );
    expect(score).toBe(Math.round((100 * 11) / 21));
  });

  it('a rule with any violation fails as a whole, even if some nodes pass', () => {
    expect(
      pageScore(
        [{ id: 'label', impact: 'critical' }],
        [
          { id: 'label', impact: 'critical' },
          { id: 'list', impact: 'serious' },
        ],
      ),
    ).toBe(41);
  });

  it('no applicable rule is 100; all failing is 0', () => {
    expect(pageScore([], [])).toBe(100);
    expect(pageScore([{ id: 'a', impact: 'minor' }], [])).toBe(0);
    expect(pageScore([], [{ id: 'a', impact: 'minor' }])).toBe(100);
  });

  it('the site score is the rounded mean of its pages; bands follow Lighthouse', () => {
    expect(siteScore([100, 91, 60])).toBe(84);
    expect(siteScore([])).toBe(0);
    expect(scoreBand(90)).toBe('good');
    expect(scoreBand(89)).toBe('average');
    expect(scoreBand(50)).toBe('average');
    expect(scoreBand(49)).toBe('poor');
  });
});

describe('disabilities mapping', () => {
  it('maps cat.* tags to user groups, in a fixed order, without duplicates', () => {
    expect(disabilitiesOf('image-alt', ['cat.text-alternatives', 'wcag2a'])).toEqual(['blind', 'deafblind']);
    expect(disabilitiesOf('label', ['cat.forms'])).toEqual(['blind', 'low-vision', 'cognitive']);
    expect(disabilitiesOf('some-rule', ['cat.keyboard', 'cat.forms'])).toEqual([
      'blind',
      'low-vision',
      'mobility',
      'cognitive',
    ]);
    expect(disabilitiesOf('unknown', ['wcag2a'])).toEqual([]);
  });

  it('per-rule overrides win over the category', () => {
    expect(disabilitiesOf('color-contrast', ['cat.color'])).toEqual(['low-vision', 'colour-vision-deficiency']);
    expect(disabilitiesOf('video-caption', ['cat.text-alternatives'])).toEqual(['deaf', 'deafblind']);
    expect(disabilitiesOf('target-size', ['cat.sensory-and-visual-cues'])).toEqual(['mobility']);
  });
});
