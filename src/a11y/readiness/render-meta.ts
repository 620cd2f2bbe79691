import type { ReportMeta, ReportPage } from '../report/report.types';

/** The report's `meta.render` ("incomplete" if any page is) and `meta.renderWaitMs` (longest wait). */
export function renderMeta(pages: readonly ReportPage[]): Pick<ReportMeta, 'render' | 'renderWaitMs'> {
  return {
    render: pages.some((p) => p.render?.state === 'incomplete') ? 'incomplete' : 'complete',
    renderWaitMs: Math.max(0, ...pages.map((p) => p.render?.waitMs ?? 0)),
  };
}
