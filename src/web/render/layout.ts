import { html, SafeHtml } from '../../common/html/html';

/** The notice of what a form just did (focused, announced), or nothing. */
export function noticeLine(text: string | null | undefined): SafeHtml {
  return text ? html`<p class="notice" role="status" tabindex="-1" autofocus>${text}</p>` : html``;
}

/** An error summary naming the field, linked to it (GOV.UK pattern). */
export function errorSummary(message: string | null | undefined, field?: string): SafeHtml {
  if (!message) return html``;
  return html`<div class="error-summary" role="alert" aria-labelledby="error-title" tabindex="-1">
  <h2 id="error-title">There is a problem</h2>
  <p>${field ? html`<a href="#${field}">${message}</a>` : message}</p>
</div>`;
}
