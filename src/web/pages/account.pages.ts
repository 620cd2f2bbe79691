import type { UserView } from '../../accounts/accounts.service';
import { MIN_PASSWORD_LENGTH } from '../../accounts/password-hasher';
import { html } from '../../common/html/html';
import { page } from '../../common/html/page';
import { errorSummary } from '../render/layout';
import { plural } from '../../common/text/plural';
import { CSRF_FIELD } from '../web-context';

export interface FormError {
  message: string;
  field?: string;
}

export function signInPage(
  csrf: string,
  o: { next?: string; email?: string; error?: FormError; notice?: string },
): string {
  return page({
    title: 'Sign in',
    section: 'signin',
    csrf,
    body: html`<h1>Sign in</h1>
${errorSummary(o.error?.message, o.error?.field)}
${o.notice ? html`<p class="notice" role="status">${o.notice}</p>` : ''}
<form class="stack" method="post" action="/signin" novalidate>
  <input type="hidden" name="${CSRF_FIELD}" value="${csrf}">
  ${o.next ? html`<input type="hidden" name="next" value="${o.next}">` : ''}
  <div><label for="email">Email</label><br>
  <input type="email" id="email" name="email" autocomplete="username" required value="${o.email ?? ''}"${o.error && o.error.field !== 'password' ? html` aria-invalid="true" aria-describedby="error-title"` : ''}></div>
  <div><label for="password">Password</label><br>
  <input type="password" id="password" name="password" autocomplete="current-password" required${o.error?.field === 'password' ? html` aria-invalid="true" aria-describedby="error-title"` : ''}></div>
  <div><button type="submit">Sign in</button></div>
</form>
<p class="hint">Accounts are created by an admin of your workspace, with a one-time password you replace at the first sign-in (it works for a limited number of days). For the PDF tools, <a href="/signup">sign up</a> with your e-mail.</p>`,
  });
}

/**
 * The password change. `proven`: the user signed in with their one-time password minutes ago, so
 * it is not asked again (see OneTimeProofService).
 */
export function passwordPage(
  user: UserView,
  csrf: string,
  o: { error?: FormError; done?: boolean; proven?: boolean },
): string {
  const invalid = (f: string) =>
    o.error?.field === f ? html` aria-invalid="true" aria-describedby="error-title"` : '';
  return page({
    title: 'Change your password',
    section: 'account',
    user,
    csrf,
    body: html`<h1>Change your password</h1>
${user.must_change_password ? html`<p class="notice" role="status">You signed in with a one-time password: choose your own password to continue.</p>` : ''}
${o.done ? html`<p class="notice" role="status">Your password was changed. Other sessions were signed out.</p>` : ''}
${errorSummary(o.error?.message, o.error?.field)}
<form class="stack" method="post" action="/account/password" novalidate>
  <input type="hidden" name="${CSRF_FIELD}" value="${csrf}">
  <input type="text" class="visually-hidden" name="username" autocomplete="username" value="${user.email}" aria-hidden="true" tabindex="-1" readonly>
  ${
    o.proven
      ? ''
      : html`<div><label for="current_password">Current password${user.must_change_password ? ' (the one-time password)' : ''}</label><br>
  <input type="password" id="current_password" name="current_password" autocomplete="current-password" required${invalid('current_password')}></div>`
  }
  <div><label for="new_password">New password <span class="hint" id="new-hint">(at least ${plural(MIN_PASSWORD_LENGTH, 'character')})</span></label><br>
  <input type="password" id="new_password" name="new_password" autocomplete="new-password" required minlength="${MIN_PASSWORD_LENGTH}" aria-describedby="new-hint"${invalid('new_password')}></div>
  <div><label for="confirm_password">New password again</label><br>
  <input type="password" id="confirm_password" name="confirm_password" autocomplete="new-password" required${invalid('confirm_password')}></div>
  <div><button type="submit">Change password</button></div>
</form>`,
  });
}
