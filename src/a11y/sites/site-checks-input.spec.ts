import { DomainError } from '../../common/errors/domain-error';
import { parseChecksForm, parseLoginForm } from './site-checks-input';
import type { SiteLogin } from './site.types';

const START = 'https://example.com/';
const fieldOf = (f: () => unknown): string | undefined => {
  try {
    f();
  } catch (e) {
    return (e as DomainError).details.field as string;
  }
  return undefined;
};

describe('parseChecksForm', () => {
  it('reads the viewport boxes (none ticked: desktop) and the two checks', () => {
    expect(parseChecksForm({})).toEqual({ viewports: ['desktop'], reflow_check: false, keyboard_walk: false });
    expect(parseChecksForm({ viewport_phone: 'yes', keyboard_walk: 'yes' })).toEqual({
      viewports: ['phone'],
      reflow_check: false,
      keyboard_walk: true,
    });
    expect(parseChecksForm({ viewport_desktop: 'yes', viewport_phone: 'yes', reflow_check: 'yes' }).viewports).toEqual([
      'desktop',
      'phone',
    ]);
  });
});

describe('parseLoginForm', () => {
  const full = {
    login_url: '/login',
    login_field1_selector: '#user',
    login_field1_value: 'me@example.com',
    login_field2_selector: '#pass',
    login_field2_value: 'secret',
    login_submit: 'button[type=submit]',
    login_check: '#account',
  };

  /** One-page login steps on the start URL's /login, checked by #account. */
  const loginAt = <F>(fields: F[], submit: string) => ({
    url: 'https://example.com/login',
    fields,
    submit,
    check_selector: '#account',
    check_url: null,
  });

  it('answers no login steps for an empty form, or when they are removed', () => {
    expect(parseLoginForm({}, START, null)).toBeUndefined();
    expect(parseLoginForm({ ...full, login_remove: 'yes' }, START, null)).toBeUndefined();
  });

  it('reads the steps, the login page resolved on the start URL', () => {
    const fields = [
      { selector: '#user', value: 'me@example.com' },
      { selector: '#pass', value: 'secret' },
    ];
    expect(parseLoginForm(full, START, null)).toEqual(loginAt(fields, 'button[type=submit]'));
  });

  it('reads the button pressed after a field (a login over several pages); none given: no next list', () => {
    expect(parseLoginForm({ ...full, login_field1_next: ' #next ' }, START, null)?.next).toEqual(['#next', null]);
    expect(parseLoginForm({ ...full, login_field1_next: '' }, START, null)).not.toHaveProperty('next');
    expect(fieldOf(() => parseLoginForm({ ...full, login_field3_next: '#more' }, START, null))).toBe(
      'login_field3_selector',
    );
  });

  it('keeps a stored value when its box is left empty, and only for the same selector', () => {
    const sealed = [
      { selector: '#user', sealed: 'sealed-user' },
      { selector: '#pass', sealed: 'sealed-pass' },
    ];
    const stored: SiteLogin = loginAt(sealed, '#go');
    const kept = parseLoginForm({ ...full, login_field2_value: '' }, START, stored)!;
    expect(kept.fields[1]).toEqual({ selector: '#pass', sealed: 'sealed-pass' });
    expect(
      fieldOf(() => parseLoginForm({ ...full, login_field2_selector: '#pw', login_field2_value: '' }, START, stored)),
    ).toBe('login_field2_value');
    expect(fieldOf(() => parseLoginForm({ ...full, login_field2_value: '' }, START, null))).toBe('login_field2_value');
  });

  it('names the field of each mistake', () => {
    expect(fieldOf(() => parseLoginForm({ ...full, login_url: 'https://elsewhere.example/login' }, START, null))).toBe(
      'login_url',
    );
    expect(fieldOf(() => parseLoginForm({ ...full, login_url: '' }, START, null))).toBe('login_url');
    expect(fieldOf(() => parseLoginForm({ ...full, login_submit: '' }, START, null))).toBe('login_submit');
    expect(fieldOf(() => parseLoginForm({ ...full, login_check: '' }, START, null))).toBe('login_check');
    expect(parseLoginForm({ ...full, login_check: '', login_check_url: '/account*' }, START, null)!.check_url).toBe(
      '/account*',
    );
    expect(fieldOf(() => parseLoginForm({ ...full, login_field3_value: 'x' }, START, null))).toBe(
      'login_field3_selector',
    );
    expect(
      fieldOf(() => parseLoginForm({ login_url: '/login', login_submit: '#go', login_check: '#account' }, START, null)),
    ).toBe('login_field1_selector');
  });
});
