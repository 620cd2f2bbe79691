/**
 * Every figure the API reports, derived from one imported scan (pure functions; formulas in
 * docs/visibility-metrics.md). Ingest runs {@link deriveScan} once and stores its output.
 * Over 300 lines: the stored result types sit beside the functions filling them, so each is read against
 * docs/visibility-metrics.md formula by formula in one file.
 */
import type { ImportFile } from '../import/import-schema';
import { categoryOf, normaliseProjectDomain, normaliseUrl, ProjectDomains, SourceCategory } from './domains';
import { BrandClassification, classifyAnswer, MentionStatus, TermIndex } from './classify';

// ---- rates and grades ---------------------------------------------------------------------------

/** part / whole x 100, rounded to 0.1; null when whole is 0 (no sample, no rate). */
export function percent(part: number, whole: number): number | null {
  if (whole <= 0) return null;
  return Math.round((part / whole) * 1000) / 10;
}

export type Grade = 'A' | 'B' | 'C' | 'D' | 'F';

/** Lowest mention rate (percent) of each grade, best first. Calibrated for low AI mention rates. */
export const GRADE_SCALE: ReadonlyArray<{ grade: Grade; min: number }> = [
  { grade: 'A', min: 40 },
  { grade: 'B', min: 25 },
  { grade: 'C', min: 10 },
  { grade: 'D', min: 3 },
  { grade: 'F', min: 0 },
];
export const GRADES: Grade[] = GRADE_SCALE.map((g) => g.grade);

/** Fewer successful answers than this: no grade (`insufficient_data`). */
export const MIN_GRADE_SAMPLE = 20;

export interface GradeResult {
  grade: Grade | null;
  /** Why the grade is null: `insufficient_data` (fewer than MIN_GRADE_SAMPLE successful answers). */
  grade_reason: string | null;
}

/** Grade of an exact (unrounded) mention rate measured on `sample` successful answers. */
export function gradeOf(mentions: number, sample: number): GradeResult {
  if (sample < MIN_GRADE_SAMPLE) return { grade: null, grade_reason: 'insufficient_data' };
  const rate = (mentions / sample) * 100;
  const grade = GRADE_SCALE.find((g) => rate >= g.min)!.grade;
  return { grade, grade_reason: null };
}

// ---- per-answer facts ----------------------------------------------------------------------------

export interface CompetitorMention {
  name: string;
  /** Code-point offset of the first mention. */
  position: number;
}

export interface DerivedAnswer {
  seq: number;
  promptId: string;
  platform: string;
  model: string | null;
  status: string;
  ok: boolean;
  text: string;
  /** Normalised citations, in order, without repeats. */
  citations: string[];
  brandMentioned: boolean;
  brandPosition: number | null;
  /** mentioned / absent / not_named (failed answers: not_named). */
  brandStatus: MentionStatus;
  competitorMentions: CompetitorMention[];
  /** Competitors the answer says it does not know (names). */
  competitorsAbsent: string[];
  /** Classification with evidence of every tracked brand, the brand first. */
  mentions: AnswerMention[];
  citesOwned: boolean;
}

/** One tracked brand in one answer: its status and the evidence behind it (GET /answers). */
export interface AnswerMention extends BrandClassification {
  name: string;
  kind: 'brand' | 'competitor';
}

export interface Funnel {
  /** Successful answers. */
  answers: number;
  with_citations: number;
  with_owned_citation: number;
  mentioned_with_owned_citation: number;
  citation_rate: number | null;
  owned_citation_rate: number | null;
  mentioned_with_owned_citation_rate: number | null;
}

export interface PlatformFigures extends GradeResult {
  platform: string;
  answers: number;
  failed: number;
  mentions: number;
  mention_rate: number | null;
  share_of_voice: number | null;
  funnel: Funnel;
}

export interface CompetitorFigures {
  name: string;
  domains: string[];
  answers: number;
  mentions: number;
  /** Successful answers saying they do not know this competitor (not counted as mentions). */
  absences: number;
  mention_rate: number | null;
  share_of_voice: number | null;
  platforms: Array<{ platform: string; answers: number; mentions: number; mention_rate: number | null }>;
}

/** Everything stored about a scan besides its rows; the summary and history read it as is. */
export interface ScanSummary extends GradeResult {
  answers: { total: number; successful: number; failed: number };
  mentions: number;
  /** Successful answers saying they do not know the brand (not counted as mentions). */
  absences: number;
  mention_rate: number | null;
  share_of_voice: number | null;
  funnel: Funnel;
  platforms: PlatformFigures[];
  competitors: CompetitorFigures[];
  counts: { sources: number; urls: number; gaps: number };
}

export interface SourceRow {
  domain: string;
  category: SourceCategory;
  citations: number;
  answers: number;
  prompts: number;
  urls: number;
  platforms: string[];
}

export interface UrlRow {
  url: string;
  domain: string;
  category: SourceCategory;
  citations: number;
  answers: number;
  prompts: number;
  platforms: string[];
}

export interface GapRow {
  url: string;
  domain: string;
  category: SourceCategory;
  answers: number;
  competitors: string[];
  prompts: string[];
  platforms: string[];
}

export interface PromptFigures {
  promptId: string;
  answers: number;
  mentions: number;
}

export interface DerivedScan {
  answers: DerivedAnswer[];
  summary: ScanSummary;
  sources: SourceRow[];
  urls: UrlRow[];
  gaps: GapRow[];
  prompts: PromptFigures[];
}

/** Owned and competitor domains of an import, normalised. */
export function projectDomains(file: Pick<ImportFile, 'brand' | 'competitors'>): ProjectDomains {
  return {
    owned: file.brand.domains.map(normaliseProjectDomain),
    competitors: file.competitors.map((c) => ({ name: c.name, domains: c.domains.map(normaliseProjectDomain) })),
  };
}

const sorted = (s: Iterable<string>): string[] => [...s].sort();
const byCountThenKey =
  <T>(count: (t: T) => number, key: (t: T) => string) =>
  (a: T, b: T) =>
    count(b) - count(a) || (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0);

function funnelOf(answers: DerivedAnswer[]): Funnel {
  const ok = answers.filter((a) => a.ok);
  const cited = ok.filter((a) => a.citations.length > 0).length;
  const owned = ok.filter((a) => a.citesOwned).length;
  const both = ok.filter((a) => a.citesOwned && a.brandMentioned).length;
  return {
    answers: ok.length,
    with_citations: cited,
    with_owned_citation: owned,
    mentioned_with_owned_citation: both,
    citation_rate: percent(cited, ok.length),
    owned_citation_rate: percent(owned, ok.length),
    mentioned_with_owned_citation_rate: percent(both, ok.length),
  };
}

/** Share of voice of one brand: its mentions over the mentions of every tracked brand (answer level). */
function shareOfVoice(answers: DerivedAnswer[], mentions: number): number | null {
  let all = 0;
  for (const a of answers) if (a.ok) all += (a.brandMentioned ? 1 : 0) + a.competitorMentions.length;
  return percent(mentions, all);
}

/** Detects mentions and citations in every answer of an import. */
export function deriveAnswers(file: ImportFile, domains: ProjectDomains = projectDomains(file)): DerivedAnswer[] {
  const index = new TermIndex([file.brand, ...file.competitors]);
  const names = [file.brand.name, ...file.competitors.map((c) => c.name)];
  return file.scan.answers.map((a, seq) => {
    const ok = a.status === 'ok';
    const citations: string[] = [];
    let citesOwned = false;
    for (const raw of a.citations) {
      const n = normaliseUrl(raw);
      if (!n || citations.includes(n.url)) continue;
      citations.push(n.url);
      if (domains.owned.some((d) => n.host === d || n.host.endsWith(`.${d}`))) citesOwned = true;
    }
    const classes = ok ? classifyAnswer(a.text, index) : [];
    const mentions: AnswerMention[] = classes.map((c, i) => ({
      name: names[i],
      kind: i === 0 ? 'brand' : 'competitor',
      ...c,
    }));
    const brand = mentions[0];
    const competitorMentions: CompetitorMention[] = mentions
      .slice(1)
      .filter((c) => c.status === 'mentioned')
      .map((c) => ({ name: c.name, position: c.position! }));
    return {
      seq,
      promptId: a.prompt_id,
      platform: a.platform,
      model: a.model,
      status: a.status,
      ok,
      text: a.text,
      citations,
      brandMentioned: brand?.status === 'mentioned',
      brandPosition: brand?.position ?? null,
      brandStatus: brand?.status ?? 'not_named',
      competitorMentions,
      competitorsAbsent: mentions
        .slice(1)
        .filter((c) => c.status === 'absent')
        .map((c) => c.name),
      mentions,
      citesOwned: ok && citesOwned,
    };
  });
}

interface Tally {
  citations: number;
  answers: Set<number>;
  prompts: Set<string>;
  platforms: Set<string>;
  urls: Set<string>;
}
const tally = (): Tally => ({
  citations: 0,
  answers: new Set(),
  prompts: new Set(),
  platforms: new Set(),
  urls: new Set(),
});

/** Derives every stored figure of one import. */
export function deriveScan(file: ImportFile): DerivedScan {
  const domains = projectDomains(file);
  const answers = deriveAnswers(file, domains);
  const ok = answers.filter((a) => a.ok);
  const mentions = ok.filter((a) => a.brandMentioned).length;

  const platforms: PlatformFigures[] = file.scan.platforms.map((platform) => {
    const on = answers.filter((a) => a.platform === platform);
    const onOk = on.filter((a) => a.ok);
    const m = onOk.filter((a) => a.brandMentioned).length;
    return {
      platform,
      answers: onOk.length,
      failed: on.length - onOk.length,
      mentions: m,
      mention_rate: percent(m, onOk.length),
      share_of_voice: shareOfVoice(on, m),
      ...gradeOf(m, onOk.length),
      funnel: funnelOf(on),
    };
  });

  const competitors: CompetitorFigures[] = file.competitors.map((c, i) => {
    const hit = (a: DerivedAnswer) => a.competitorMentions.some((x) => x.name === c.name);
    const m = ok.filter(hit).length;
    return {
      name: c.name,
      domains: domains.competitors[i].domains,
      answers: ok.length,
      mentions: m,
      absences: ok.filter((a) => a.competitorsAbsent.includes(c.name)).length,
      mention_rate: percent(m, ok.length),
      share_of_voice: shareOfVoice(answers, m),
      platforms: file.scan.platforms.map((platform) => {
        const onOk = ok.filter((a) => a.platform === platform);
        const pm = onOk.filter(hit).length;
        return { platform, answers: onOk.length, mentions: pm, mention_rate: percent(pm, onOk.length) };
      }),
    };
  });

  // Sources, URLs and gaps: successful answers only.
  const byDomain = new Map<string, Tally>();
  const byUrl = new Map<string, Tally & { domain: string; host: string }>();
  const brandUrls = new Set<string>();
  const gapTally = new Map<
    string,
    { answers: Set<number>; competitors: Set<string>; prompts: Set<string>; platforms: Set<string> }
  >();
  for (const a of ok) {
    const raw = file.scan.answers[a.seq].citations;
    for (const r of raw) {
      const n = normaliseUrl(r)!;
      const d = byDomain.get(n.domain) ?? tally();
      byDomain.set(n.domain, d);
      d.citations++;
      d.answers.add(a.seq);
      d.prompts.add(a.promptId);
      d.platforms.add(a.platform);
      d.urls.add(n.url);
      const u = byUrl.get(n.url) ?? { ...tally(), domain: n.domain, host: n.host };
      byUrl.set(n.url, u);
      u.citations++;
      u.answers.add(a.seq);
      u.prompts.add(a.promptId);
      u.platforms.add(a.platform);
    }
    if (a.brandMentioned) for (const url of a.citations) brandUrls.add(url);
    else if (a.competitorMentions.length > 0) {
      for (const url of a.citations) {
        const g = gapTally.get(url) ?? {
          answers: new Set(),
          competitors: new Set(),
          prompts: new Set(),
          platforms: new Set(),
        };
        gapTally.set(url, g);
        g.answers.add(a.seq);
        for (const c of a.competitorMentions) g.competitors.add(c.name);
        g.prompts.add(a.promptId);
        g.platforms.add(a.platform);
      }
    }
  }

  const sources: SourceRow[] = [...byDomain.entries()]
    .map(([domain, t]) => ({
      domain,
      category: categoryOf(domain, domains),
      citations: t.citations,
      answers: t.answers.size,
      prompts: t.prompts.size,
      urls: t.urls.size,
      platforms: sorted(t.platforms),
    }))
    .sort(
      byCountThenKey(
        (s) => s.citations,
        (s) => s.domain,
      ),
    );
  const urls: UrlRow[] = [...byUrl.entries()]
    .map(([url, t]) => ({
      url,
      domain: t.domain,
      category: categoryOf(t.host, domains),
      citations: t.citations,
      answers: t.answers.size,
      prompts: t.prompts.size,
      platforms: sorted(t.platforms),
    }))
    .sort(
      byCountThenKey(
        (u) => u.citations,
        (u) => u.url,
      ),
    );
  const gaps: GapRow[] = [...gapTally.entries()]
    .filter(([url]) => !brandUrls.has(url))
    .map(([url, g]) => {
      const u = byUrl.get(url)!;
      return {
        url,
        domain: u.domain,
        category: categoryOf(u.host, domains),
        answers: g.answers.size,
        competitors: sorted(g.competitors),
        prompts: sorted(g.prompts),
        platforms: sorted(g.platforms),
      };
    })
    .sort(
      byCountThenKey(
        (g) => g.answers,
        (g) => g.url,
      ),
    );

  const perPrompt = new Map<string, PromptFigures>();
  for (const a of ok) {
    const p = perPrompt.get(a.promptId) ?? { promptId: a.promptId, answers: 0, mentions: 0 };
    perPrompt.set(a.promptId, p);
    p.answers++;
    if (a.brandMentioned) p.mentions++;
  }

  return {
    answers,
    summary: {
      answers: { total: answers.length, successful: ok.length, failed: answers.length - ok.length },
      mentions,
      absences: ok.filter((a) => a.brandStatus === 'absent').length,
      mention_rate: percent(mentions, ok.length),
      share_of_voice: shareOfVoice(answers, mentions),
      ...gradeOf(mentions, ok.length),
      funnel: funnelOf(answers),
      platforms,
      competitors,
      counts: { sources: sources.length, urls: urls.length, gaps: gaps.length },
    },
    sources,
    urls,
    gaps,
    prompts: [...perPrompt.values()],
  };
}
