/**
 * OCR languages (tesseract's codes; Debian's tesseract-ocr-eng, -deu, -fra, -spa) and the "auto"
 * choice: the first page read with English, its language told by common short words (a scan's
 * accents may be misread; these words survive), then the document read with that language.
 */
export const OCR_LANGUAGES = { eng: 'English', deu: 'German', fra: 'French', spa: 'Spanish' } as const;
export type OcrLanguage = keyof typeof OCR_LANGUAGES;
export const isOcrLanguage = (v: string): v is OcrLanguage => Object.prototype.hasOwnProperty.call(OCR_LANGUAGES, v);

const STOPWORDS: Record<OcrLanguage, string[]> = {
  eng: ['the', 'and', 'of', 'to', 'is', 'in', 'that', 'for', 'with', 'was', 'on', 'this', 'are'],
  deu: [
    'der',
    'die',
    'und',
    'das',
    'ist',
    'nicht',
    'mit',
    'den',
    'ein',
    'eine',
    'zu',
    'auf',
    'sich',
    'von',
    'dem',
    'wir',
  ],
  fra: ['le', 'la', 'les', 'et', 'des', 'est', 'une', 'un', 'du', 'pour', 'dans', 'que', 'qui', 'sur', 'pas', 'nous'],
  spa: ['el', 'la', 'los', 'las', 'y', 'es', 'una', 'un', 'del', 'por', 'para', 'con', 'que', 'se', 'en', 'no'],
};

/** The language of `text` by its commonest short words; English when nothing tells. */
export function detectLanguage(text: string): OcrLanguage {
  const words = text.toLowerCase().match(/\p{L}+/gu) ?? [];
  let best: OcrLanguage = 'eng';
  let bestScore = 0;
  for (const lang of Object.keys(STOPWORDS) as OcrLanguage[]) {
    const set = new Set(STOPWORDS[lang]);
    const score = words.filter((w) => set.has(w)).length;
    if (score > bestScore) {
      best = lang;
      bestScore = score;
    }
  }
  return best;
}

/** Levenshtein distance of two strings (characters), for the character error rate. */
export function editDistance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0];
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = prev[j];
      prev[j] = Math.min(prev[j] + 1, prev[j - 1] + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = up;
    }
  }
  return prev[b.length];
}

/** Character error rate of `read` against `truth`, whitespace runs counted as one space. */
export function characterErrorRate(truth: string, read: string): number {
  const norm = (s: string): string => s.replace(/\s+/g, ' ').trim();
  const t = norm(truth);
  return t.length ? editDistance(t, norm(read)) / t.length : 0;
}
