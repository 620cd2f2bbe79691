import type { UserView } from '../../accounts/accounts.service';
import { MIN_PASSWORD_LENGTH } from '../../accounts/password-hasher';
import { MAIL_OFF_HINT } from '../../common/notify/mail.service';
import { html } from '../../common/html/html';
import { page } from '../../common/html/page';
import { errorSummary } from '../render/layout';
import { CSRF_FIELD } from '../web-context';
import type { FormError } from './account.pages';

/** The sign-up form of the PDF site (e-mail, password twice). Without SMTP_URL it says which setting enables it. */
export function signupPage(csrf: string, o: { email?: string; error?: FormError; mailConfigured: boolean }): string {
  const invalid = (f: string) =>
    o.error?.field === f ? html` aria-invalid="true" aria-describedby="error-title"` : '';
  const off = !o.mailConfigured;
  return page({
    title: 'Sign up',
    section: 'signin',
    csrf,
    body: html`<h1>Sign up for the PDF tools</h1>
<p>An account gives you higher daily limits on the PDF tools. We send a link to your address to confirm it; the
account exists only once you open it.</p>
${errorSummary(o.error?.message, o.error?.field)}
${off ? html`<p class="notice" id="mail-off">${MAIL_OFF_HINT} Until then nobody can sign up here.</p>` : ''}
<form class="stack" method="post" action="/signup" novalidate>
  <input type="hidden" name="${CSRF_FIELD}" value="${csrf}">
  <div><label for="email">E-mail</label><br>
  <input type="email" id="email" name="email" autocomplete="email" maxlength="254" required value="${o.email ?? ''}"${invalid('email')}${off ? html` disabled` : ''}></div>
  <div><label for="password">Password <span class="hint">(at least ${MIN_PASSWORD_LENGTH} characters)</span></label><br>
  <input type="password" id="password" name="password" autocomplete="new-password" required${invalid('password')}${off ? html` disabled` : ''}></div>
  <div><label for="confirm_password">The same password again</label><br>
  <input type="password" id="confirm_password" name="confirm_password" autocomplete="new-password" required${invalid('confirm_password')}${off ? html` disabled` : ''}></div>
  <div><button type="submit"${off ? html` disabled aria-describedby="mail-off"` : ''}>Sign up</button></div>
</form>
<p>Already have an account? <a href="/signin">Sign in</a>.</p>`,
  });
}

/** The one answer to every accepted sign-up (known address or not). */
export function signupSentPage(csrf: string, email: string, ttlH: number): string {
  return page({
    title: 'Check your e-mail',
    section: 'signin',
    csrf,
    body: html`<h1>Check your e-mail</h1>
<p class="notice" role="status">We sent a message to <strong>${email}</strong>. Open the link in it to finish signing up
(it works for ${ttlH} hours). Nothing arrived after a few minutes? Look in the spam folder, or sign up again.</p>
<p>You cannot sign in before the address is confirmed.</p>`,
  });
}

/** The link's landing page: a button that confirms (mail scanners open links; only a person presses it), or why it cannot. */
export function verifyPage(csrf: string, token: string, o: { error?: string }): string {
  return page({
    title: o.error ? 'Sign-up link' : 'Confirm your e-mail',
    section: 'signin',
    csrf,
    body: o.error
      ? html`<h1>This sign-up link cannot be used</h1>
${errorSummary(o.error)}
<p><a href="/signup">Sign up again</a> or <a href="/signin">sign in</a>.</p>`
      : html`<h1>Confirm your e-mail</h1>
<p>Press the button to confirm your address and create your account.</p>
<form method="post" action="/signup/verify"><input type="hidden" name="${CSRF_FIELD}" value="${csrf}">
<input type="hidden" name="token" value="${token}">
<button type="submit">Confirm and create my account</button></form>`,
  });
}

export function welcomePage(user: UserView, csrf: string): string {
  return page({
    title: 'Welcome',
    section: 'account',
    user,
    csrf,
    body: html`<h1>Your account is ready</h1>
<p class="notice" role="status" tabindex="-1" autofocus>${user.email} is confirmed and you are signed in.</p>
<p>Go on to the <a href="/pdf">PDF tools</a>.</p>`,
  });
}
