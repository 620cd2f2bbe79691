import { DomainError } from '../../common/errors/domain-error';
import { VIEWPORT_NAMES, type ViewportName } from '../scan/scan-options';
import type { SiteChecksInput, SiteLogin } from './site.types';

/** Fields of the login steps a site may have. */
export const MAX_LOGIN_FIELDS = 3;
const MAX_SELECTOR = 300;
const MAX_VALUE = 1000;

/** The SecretBox purpose of login field values. */
export const SITE_LOGIN_PURPOSE = 'a11y-site-login';

/**
 * Viewports and checks of the site form: the viewport checkboxes (`viewport_desktop`,
 * `viewport_phone`; none ticked, as from a form without them: desktop), `reflow_check` and
 * `keyboard_walk` ("yes" when ticked).
 */
export function parseChecksForm(f: Record<string, string | undefined>): SiteChecksInput {
  const viewports = VIEWPORT_NAMES.filter((v: ViewportName) => f[`viewport_${v}`] === 'yes');
  return {
    viewports: viewports.length ? viewports : ['desktop'],
    reflow_check: f.reflow_check === 'yes',
    keyboard_walk: f.keyboard_walk === 'yes',
  };
}

/** Login steps as typed: field values in clear, or the stored sealed value kept (its value was left empty). */
export interface LoginInput {
  url: string;
  fields: ({ selector: string; value: string } | { selector: string; sealed: string })[];
  submit: string;
  check_selector: string | null;
  check_url: string | null;
  /** The button pressed after each field (SiteLogin.next); absent when none is given. */
  next?: (string | null)[];
}

const selector = (v: string | undefined, field: string, what: string): string => {
  const s = (v ?? '').trim();
  if (s.length > MAX_SELECTOR)
    throw DomainError.badRequest(`The ${what} is longer than ${MAX_SELECTOR} characters.`, field);
  return s;
};

/**
 * The login part of the site form (`login_url`, `login_field<N>_selector` / `_value` / `_next` (a
 * button pressed after the field, for a login over several pages) for N = 1..3, `login_submit`, `login_check`, `login_check_url`, `login_remove`). Undefined: no login steps (none
 * given, or removed). A field's empty value keeps the stored one (`stored`: the site's current
 * steps), as values are never shown again. Messages name the field they are about.
 */
export function parseLoginForm(
  f: Record<string, string | undefined>,
  startUrl: string,
  stored: SiteLogin | null,
): LoginInput | undefined {
  if (f.login_remove === 'yes') return undefined;
  const url = (f.login_url ?? '').trim();
  const fields: LoginInput['fields'] = [];
  const next: (string | null)[] = [];
  for (let i = 1; i <= MAX_LOGIN_FIELDS; i++) {
    const sel = selector(f[`login_field${i}_selector`], `login_field${i}_selector`, `selector of field ${i}`);
    const value = f[`login_field${i}_value`] ?? '';
    const then = selector(f[`login_field${i}_next`], `login_field${i}_next`, `button after field ${i}`);
    if (!sel) {
      if (value || then)
        throw DomainError.badRequest(
          `Give the selector of field ${i} (the ${value ? 'value' : 'button after it'} has no field).`,
          `login_field${i}_selector`,
        );
      continue;
    }
    next.push(then || null);
    if (value.length > MAX_VALUE)
      throw DomainError.badRequest(
        `The value of field ${i} is longer than ${MAX_VALUE} characters.`,
        `login_field${i}_value`,
      );
    const kept = stored?.fields[i - 1];
    if (!value && !(kept && kept.selector === sel))
      throw DomainError.badRequest(
        `Give the value of field ${i} (it is stored encrypted and never shown again).`,
        `login_field${i}_value`,
      );
    fields.push(value ? { selector: sel, value } : { selector: sel, sealed: kept!.sealed });
  }
  const submit = selector(f.login_submit, 'login_submit', 'button selector');
  const check = selector(f.login_check, 'login_check', 'check selector') || null;
  const checkUrl = (f.login_check_url ?? '').trim().slice(0, MAX_SELECTOR) || null;
  if (!url && fields.length === 0 && !submit && !check && !checkUrl) return undefined;
  if (!url) throw DomainError.badRequest('Give the address of the login page.', 'login_url');
  let u: URL;
  try {
    u = new URL(url, startUrl);
  } catch {
    throw DomainError.badRequest(`Not an address: ${url}`, 'login_url');
  }
  const origin = new URL(startUrl).origin;
  if (u.origin !== origin)
    throw DomainError.badRequest(`${u.href} is not on ${origin}: the login page is on the site's origin.`, 'login_url');
  if (fields.length === 0)
    throw DomainError.badRequest(
      'Give at least one field to fill (a selector and its value).',
      'login_field1_selector',
    );
  if (!submit) throw DomainError.badRequest('Give the selector of the button to press.', 'login_submit');
  if (!check && !checkUrl)
    throw DomainError.badRequest(
      'Give a check that the login worked: a selector present after it, or an address pattern.',
      'login_check',
    );
  return {
    url: u.href,
    fields,
    submit,
    check_selector: check,
    check_url: checkUrl,
    ...(next.some((n) => n) ? { next } : {}),
  };
}
