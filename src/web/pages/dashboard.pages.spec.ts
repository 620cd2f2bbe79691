import { contrast } from '../../../test/web/contrast';
import type { ScanChanges } from '../../visibility/derive/changes';
import type { AnswerItem } from '../../visibility/store/visibility-read.store';
import { WEB_CSS } from '../../common/html/assets';
import { oneDecimal, percent } from '../render/values';
import {
  answerItem,
  changeWords,
  failureReason,
  filterForm,
  highlight,
  interval,
  promptLinks,
} from './dashboard.pages';

/** The value of a CSS custom property of :root, e.g. "--soft" -> "#f3f5f8". */
const cssVar = (name: string): string => new RegExp(`${name}:(#[0-9a-fA-F]{3,6})`).exec(WEB_CSS)![1];
/** A rule's background as a colour, following one var(). */
const background = (selector: string): string => {
  const rule = new RegExp(`(?:^|\\n|\\})${selector.replace(/[.[\]]/g, '\\$&')}\\{([^}]*)\\}`).exec(WEB_CSS)![1];
  const v = /background:([^;}]+)/.exec(rule)![1].trim();
  const ref = /^var\((--[a-z-]+)\)$/.exec(v);
  return ref ? cssVar(ref[1]) : v;
};

describe('Dashboard page helpers', () => {
  it('shows every percentage with one decimal (one format on every figure), "–" without a value', () => {
    expect(percent(17)).toBe('17.0%');
    expect(percent(38.3)).toBe('38.3%');
    expect(percent(0)).toBe('0.0%');
    expect(percent(100)).toBe('100.0%');
    expect(percent(null)).toBe('–');
    expect(percent(undefined)).toBe('–');
    expect(oneDecimal(-2.5)).toBe('-2.5');
    expect(interval({ low: 20, high: 43.1 })).toBe('95 % interval 20.0–43.1 %');
  });

  it('gives the focus ring at least 3:1 against every background it is drawn on (white, the header, table heads)', () => {
    const ring = /:focus-visible\{outline:\d+px solid (#[0-9a-fA-F]{3,6})/.exec(WEB_CSS)![1];
    const grounds = {
      page: background('html'),
      header: background('header.site'),
      'table head': background('th'),
      card: background('.card'),
    };
    expect(grounds).toEqual({ page: '#fff', header: '#f3f5f8', 'table head': '#f3f5f8', card: '#fff' });
    for (const [where, ground] of Object.entries(grounds)) {
      expect({ where, enough: contrast(ring, ground) >= 3 }).toEqual({ where, enough: true });
    }
    // The amber of the issue measured as it reported it: 2.15:1 on white.
    expect(contrast('#f59e0b', '#fff')).toBeCloseTo(2.15, 2);
  });

  it("says the API's changes with their counts: gaps and sources gained and lost, the grade from and to", () => {
    const set = (gained: number, lost: number) => ({ gained: [], lost: [], gained_count: gained, lost_count: lost });
    const changes: ScanChanges = {
      previous_scan_id: 's1',
      detected: ['grade_up', 'mention_rate_up', 'sources_gained', 'gaps_gained', 'gaps_lost'],
      grade: { from: 'C', to: 'B' },
      mention_rate: {
        from: 20,
        to: 26.5,
        delta: 6.5,
        relative_change: 0.325,
        significant: true,
        p_value: 0.01,
        moved: true,
      },
      sources: set(4, 0),
      gaps: set(3, 12),
    };
    expect(changeWords(changes)).toBe(
      'grade up (C to B), mention rate up (+6.5 points), sources gained: 4, gaps gained: 3, gaps lost: 12',
    );
    expect(changeWords(null)).toBe('–');
    expect(changeWords({ ...changes, detected: [] })).toBe('–');
  });

  it("lists a gap's prompt ids apart, each a link to its answers", () => {
    expect(promptLinks(['p007', 'p008', 'p012']).value).toBe(
      '<a href="/dashboard/answers?prompt_id=p007">p007</a>, <a href="/dashboard/answers?prompt_id=p008">p008</a>, <a href="/dashboard/answers?prompt_id=p012">p012</a>',
    );
  });

  it('tells the own brand from competitors by more than colour: bold mark with "(you)"', () => {
    const text = 'Acme and Rival are both fine.';
    const out = highlight(text, [
      {
        name: 'Acme',
        kind: 'brand',
        status: 'mentioned',
        evidence: [{ matched: 'Acme', offset: 0, rule: 'name' }],
        excluded: [],
      },
      {
        name: 'Rival',
        kind: 'competitor',
        status: 'mentioned',
        evidence: [{ matched: 'Rival', offset: 9, rule: 'name' }],
        excluded: [],
      },
    ]).value;
    expect(out).toContain('<mark class="own" title="Acme: counted (name)">Acme<span class="you"> (you)</span></mark>');
    expect(out).toContain('<mark class="competitor" title="Rival: counted (name)">Rival</mark>');
    expect(/mark\.own\{[^}]*font-weight:(\d+)/.exec(WEB_CSS)![1]).toBe('800');
  });

  it('says why a failed answer failed, from its stored status, and that it counts in no rate', () => {
    expect(failureReason('timeout')).toBe('the platform did not answer in time');
    expect(failureReason('quota_exceeded')).toBe('the platform\'s status was "quota exceeded"');
    const failed: AnswerItem = {
      index: 7,
      prompt_id: 'p1',
      prompt: 'Best CRM?',
      platform: 'chatgpt',
      model: null,
      status: 'error',
      text: '',
      brand_mentioned: false,
      brand_position: null,
      brand_status: 'not_named',
      competitors_mentioned: [],
      competitors_absent: [],
      competitor_mentions: [],
      citations: [],
      cites_owned: false,
      mentions: [],
    };
    const html = answerItem(failed, 'Acme').value;
    expect(html).toContain(
      '<p class="failure" id="answer-7-failure"><strong>Failed:</strong> the platform answered with an error (status “error”). A failed answer counts in no rate.</p>',
    );
    expect(html).not.toContain('does not mention Acme');
  });

  it('marks a refused filter on its field and keeps the others, lists showing the value in use', () => {
    const form = filterForm(
      '/dashboard/prompts',
      [
        { name: 'country', label: 'Country (2 letters)', value: 'USA' },
        {
          name: 'enabled',
          label: 'Enabled',
          value: 'true',
          options: [
            ['true', 'yes'],
            ['false', 'no'],
          ],
        },
        { name: 'platform', label: 'Platform', value: 'bing', options: ['chatgpt'] },
      ],
      '25',
      { field: 'country', message: 'Country (2 letters): enter a two-letter country code, such as US.' },
    ).value;
    expect(form).toContain(
      '<a href="#f-country">Country (2 letters): enter a two-letter country code, such as US.</a>',
    );
    expect(form).toContain(
      '<input type="text" id="f-country" name="country" value="USA" aria-invalid="true" aria-describedby="f-country-error">',
    );
    expect(form).toContain('<option value="true" selected>yes</option>');
    expect(form).toContain('<option value="bing" selected>bing</option>');
    expect(form).toContain('<option value="25" selected>25</option>');
  });
});
