import { html, SafeHtml } from '../../common/html/html';
import { plural } from '../../common/text/plural';
import type { CheckFinding, KeyboardWalkResult, PageReview, ReflowResult } from '../checks/check.types';
import type { ReportPage } from '../report/report.types';
import { sameSiteSrc } from './results-sections';

const findingsList = (findings: readonly CheckFinding[], none: string): SafeHtml =>
  findings.length
    ? html`<ul>${findings.map((f) => html`<li><code>${f.selector}</code>${f.name ? ` ("${f.name}")` : ''}: ${f.message}</li>`)}</ul>`
    : html`<p>${none}</p>`;

function reflowHtml(r: ReflowResult): SafeHtml {
  return html`<h4>Reflow at ${r.width} px (WCAG 1.4.10)</h4>
<p>Laid out ${r.width} CSS px wide, the page is ${r.scrollWidth} px wide: ${r.horizontalScroll ? 'it scrolls sideways.' : 'it does not scroll sideways.'}</p>
${findingsList(r.findings, 'No sideways scrolling, cut, off-screen or overlapping control was found at this width.')}`;
}

const ENDED: Record<KeyboardWalkResult['ended'], string> = {
  cycled: 'the focus went through the whole page',
  trapped: 'the focus was trapped',
  limit: 'the walk reached its limit of Tab presses or time',
};

function keyboardHtml(k: KeyboardWalkResult): SafeHtml {
  return html`<h4>Keyboard walk (WCAG 2.1.1, 2.1.2, 2.4.3, 2.4.7)</h4>
<p>${plural(k.presses, 'Tab press', 'Tab presses')}, ${plural(k.stops.length, 'element')} reached of ${k.tabbable} expected; ${ENDED[k.ended]}.</p>
${findingsList(k.findings, 'No keyboard trap, missing focus indicator or unreached control was found.')}
${
  k.stops.length
    ? html`<details><summary>Focus order (${plural(k.stops.length, 'stop')})</summary>
<ol class="focus-path">${k.stops.map(
        (s, i) =>
          html`<li><code>${s.selector}</code> ${s.name ? `"${s.name}"` : `(${s.tag}, no name)`}${s.indicator ? '' : ': no visible focus indicator'}${
            s.screenshot
              ? html`<br><img class="shot" src="${sameSiteSrc(s.screenshot)}" alt="Stop ${i + 1} focused: ${s.name || s.selector}">`
              : ''
          }</li>`,
      )}</ol></details>`
    : ''
}`;
}

/** A site scan page's checks beyond axe on /r/{id} (nothing for a public scan, which runs none). */
export function reviewHtml(p: ReportPage): SafeHtml | '' {
  const r = p.review;
  if (!r) return '';
  return html`<h3>Checks beyond axe: needs review (${r.needsReview})</h3>
<p>These findings come from the site's own checks; a person decides whether each one fails. They are not part of the score.</p>
${r.reflow ? reflowHtml(r.reflow) : ''}
${r.keyboard ? keyboardHtml(r.keyboard) : ''}
${r.errors?.length ? html`<ul>${r.errors.map((e) => html`<li>${e}</li>`)}</ul>` : ''}`;
}

/** The same findings as lines of text (the PDF). */
export function reviewLines(r: PageReview): string[] {
  const out: string[] = [];
  const finding = (f: CheckFinding) => `${f.selector}${f.name ? ` ("${f.name}")` : ''}: ${f.message}`;
  if (r.reflow)
    out.push(
      `Reflow at ${r.reflow.width} px (WCAG 1.4.10): the page is ${r.reflow.scrollWidth} px wide, ${r.reflow.horizontalScroll ? 'it scrolls sideways' : 'no sideways scrolling'}; ${plural(r.reflow.findings.length, 'finding')}.`,
      ...r.reflow.findings.map(finding),
    );
  if (r.keyboard)
    out.push(
      `Keyboard walk: ${plural(r.keyboard.stops.length, 'element')} reached of ${r.keyboard.tabbable} expected; ${ENDED[r.keyboard.ended]}; ${plural(r.keyboard.findings.length, 'finding')}.`,
      ...r.keyboard.findings.map(finding),
    );
  out.push(...(r.errors ?? []));
  return out;
}
