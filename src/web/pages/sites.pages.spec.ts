import type { UserView } from '../../accounts/accounts.service';
import type { Site } from '../../a11y/sites/site.types';
import { formOfSite, sitePage, sitesPage } from './sites.pages';

const admin = { id: 'u1', email: 'admin@example.com', role: 'admin', workspace_id: 'w1' } as unknown as UserView;
const site = {
  id: '00000000-0000-0000-0000-000000000001',
  workspace_id: 'w1',
  name: 'Example',
  start_url: 'https://example.com/',
  sitemap_url: 'https://example.com/sitemap.xml',
  urls: ['https://example.com/a'],
  page_source: 'crawl',
  include_patterns: [],
  exclude_patterns: [],
  page_budget: 100,
  respect_robots: true,
  ignore_rules: [],
  excluded_selectors: [],
  schedule: 'off',
  alert_drop: 5,
  verification_token: 't',
  verified_at: null,
  verified_by: null,
  created_at: '2026-11-27T00:00:00Z',
  viewports: ['desktop'],
  reflow_check: false,
  keyboard_walk: false,
  login: {
    url: 'https://example.com/signin',
    fields: [
      { selector: '#email', sealed: 's1' },
      { selector: '#pw', sealed: 's2' },
    ],
    next: ['#next', null],
    submit: '#go',
    check_selector: '#account',
    check_url: null,
  },
} as Site;

describe('the site form: where the pages come from, and Next buttons of the login steps', () => {
  it("shows the saved choice selected, the kept sitemap, and each field's button after it", () => {
    const page = sitePage({ user: admin, csrf: 'c', site, scans: [], verificationPath: '/v', txtPrefix: 'p=' });
    expect(page).toContain('<option value="crawl" selected>');
    expect(page).not.toContain('<option value="sitemap" selected>');
    expect(page).toContain('name="sitemap_url" type="url" value="https://example.com/sitemap.xml"');
    expect(page).toContain('pages found by a crawl from the start URL and 1 listed page');
    expect(page).toMatch(/id="login_field1_next" name="login_field1_next" type="text" value="#next"/);
    expect(page).toContain('2 fields in 2 steps, values set');
    expect(formOfSite(site)).toMatchObject({ page_source: 'crawl', login_field1_next: '#next', login_field2_next: '' });
  });

  it('a new form without a choice proposes the crawl; a form sent back with a sitemap keeps it chosen', () => {
    expect(sitesPage({ user: admin, csrf: 'c', sites: [] })).toContain('<option value="crawl" selected>');
    expect(sitesPage({ user: admin, csrf: 'c', sites: [], form: { sitemap_url: '/s.xml' } })).toContain(
      '<option value="sitemap" selected>',
    );
  });
});
