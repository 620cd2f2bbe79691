import type { UserView } from '../../accounts/accounts.service';
import { html, Renderable } from '../../common/html/html';
import { page } from '../../common/html/page';
import { CSRF_FIELD } from '../web-context';

/** The step before a destructive action (or one that gives access back): what goes, what goes with it, and the way back. */
export interface Confirmation {
  user: UserView;
  csrf: string;
  /** The question, as the page's title and heading: 'Delete the prompt "best crm"?'. */
  question: string;
  /** What goes with it and whether it can be undone (paragraphs). */
  consequences: Renderable;
  /** Where the form posts (the action itself). */
  action: string;
  /** The button's words: "Delete the prompt". */
  button: string;
  /** Where Cancel leads: the page the user came from. */
  cancel: string;
  /** Hidden fields sent with the action besides the CSRF token. */
  fields?: Record<string, string>;
  /** False for an action that gives something back (enabling a member again): a plain button, not a red one. */
  danger?: boolean;
}

/**
 * A confirmation page (API keys, prompts, competitors, sites): a GET that names what will be removed,
 * with a POST form (CSRF token) to do it and Cancel back to where the user was; no script needed.
 */
export function confirmPage(c: Confirmation): string {
  return page({
    title: c.question,
    section: 'dashboard',
    user: c.user,
    csrf: c.csrf,
    body: html`<h1>${c.question}</h1>
${c.consequences}
<form method="post" action="${c.action}"><input type="hidden" name="${CSRF_FIELD}" value="${c.csrf}">
${Object.entries(c.fields ?? {}).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}
<button type="submit"${c.danger === false ? '' : html` class="danger"`}>${c.button}</button> <a href="${c.cancel}">Cancel</a></form>`,
  });
}
