/**
 * Affected user groups of an axe rule. axe has no such field: this is our mapping from its `cat.*`
 * tags, with per-rule overrides where a category is too coarse. Documented in docs/a11y-scoring.md.
 */
export const USER_GROUPS = [
  'blind',
  'low-vision',
  'colour-vision-deficiency',
  'deaf',
  'deafblind',
  'mobility',
  'cognitive',
] as const;
export type UserGroup = (typeof USER_GROUPS)[number];

export const CATEGORY_GROUPS: Readonly<Record<string, readonly UserGroup[]>> = {
  'cat.text-alternatives': ['blind', 'deafblind'],
  'cat.color': ['low-vision', 'colour-vision-deficiency'],
  'cat.keyboard': ['mobility', 'blind'],
  'cat.forms': ['blind', 'low-vision', 'cognitive'],
  'cat.time-and-media': ['cognitive', 'deaf'],
  'cat.aria': ['blind', 'deafblind'],
  'cat.name-role-value': ['blind', 'deafblind', 'mobility'],
  'cat.structure': ['blind', 'cognitive'],
  'cat.semantics': ['blind', 'cognitive'],
  'cat.language': ['blind', 'cognitive'],
  'cat.parsing': ['blind'],
  'cat.tables': ['blind', 'deafblind'],
  'cat.sensory-and-visual-cues': ['low-vision', 'mobility'],
};

/** Rules whose category says too little or too much. */
export const RULE_GROUPS: Readonly<Record<string, readonly UserGroup[]>> = {
  'color-contrast': ['low-vision', 'colour-vision-deficiency'],
  'color-contrast-enhanced': ['low-vision', 'colour-vision-deficiency'],
  'link-in-text-block': ['colour-vision-deficiency', 'low-vision'],
  'video-caption': ['deaf', 'deafblind'],
  'audio-caption': ['deaf', 'deafblind'],
  'no-autoplay-audio': ['blind', 'cognitive'],
  'meta-refresh': ['blind', 'cognitive', 'mobility'],
  blink: ['cognitive', 'low-vision'],
  marquee: ['cognitive', 'low-vision'],
  'target-size': ['mobility'],
  'meta-viewport': ['low-vision'],
  'css-orientation-lock': ['mobility', 'low-vision'],
  'avoid-inline-spacing': ['low-vision', 'cognitive'],
  'label-content-name-mismatch': ['mobility', 'blind'],
  bypass: ['blind', 'mobility'],
  'scrollable-region-focusable': ['mobility', 'blind'],
  'html-has-lang': ['blind', 'cognitive'],
  'document-title': ['blind', 'cognitive'],
};

/** The user groups a rule's failures affect, in the order of {@link USER_GROUPS}. */
export function disabilitiesOf(ruleId: string, tags: readonly string[]): UserGroup[] {
  const found = new Set<UserGroup>(RULE_GROUPS[ruleId] ?? tags.flatMap((t) => CATEGORY_GROUPS[t] ?? []));
  return USER_GROUPS.filter((g) => found.has(g));
}
