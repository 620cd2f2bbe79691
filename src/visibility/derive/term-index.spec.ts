import { brandTerms, codePointOffsets, TermIndex } from './term-index';

/** Code-point offset of the brand's first match, or null. */
const find = (text: string, name: string, aliases: string[] = []): number | null => {
  const t = text.normalize('NFC');
  const [m] = new TermIndex([{ name, aliases }]).find(t);
  return m ? codePointOffsets(t, [m.start])[0] : null;
};

describe('mention detection', () => {
  it('finds the name case-insensitively and records the first position', () => {
    expect(find('We recommend acme and ACME.', 'Acme')).toBe(13);
    expect(find('ACME first', 'acme')).toBe(0);
  });

  it('never matches inside another word', () => {
    expect(find('Visit Acmeville today', 'Acme')).toBeNull();
    expect(find('the NotAcme tool', 'Acme')).toBeNull();
    expect(find('acme2 is different', 'Acme')).toBeNull();
  });

  it('a two-letter brand never matches inside words', () => {
    expect(find('The chapter shows how to hope', 'HP')).toBeNull();
    expect(find('Buy an HP laptop', 'HP')).toBe(7);
    expect(find('hp.', 'HP')).toBe(0);
  });

  it('handles punctuation around and inside names', () => {
    expect(find('Try (Acme), it works', 'Acme')).toBe(5);
    expect(find("Acme's pricing", 'Acme')).toBe(0);
    expect(find('see Acme.io for details', 'Acme.io')).toBe(4);
    expect(find('see Acme.io.', 'Acme.io')).toBe(4);
    expect(find('see AcmeXio', 'Acme.io')).toBeNull();
    expect(find('C++ and C#', 'C#')).toBe(8);
    expect(find('Use Acme-based flows', 'Acme')).toBe(4);
  });

  it('matches aliases and multi-word names across any whitespace', () => {
    expect(find('Try Globex\nCRM now', 'Globex Corporation', ['Globex CRM'])).toBe(4);
    expect(find('nothing', 'Globex', ['Globex CRM'])).toBeNull();
  });

  it('works for non-Latin names, counting positions in code points', () => {
    expect(find('Лучший выбор: Яндекс и другие', 'яндекс')).toBe(14);
    expect(find('Яндексовый сервис', 'Яндекс')).toBeNull();
    expect(find('我推荐阿里云和腾讯云', '腾讯云')).toBe(7);
    expect(find('😀 Acme', 'Acme')).toBe(2);
    expect(find('Über Café Zürich', 'café')).toBe(5);
    expect(find('Cafés near me', 'Café')).toBeNull();
  });

  it('treats a decomposed accent as part of the word (NFC)', () => {
    expect(find('Cafe\u0301 Royal', 'Café')).toBe(0);
  });

  it('escapes regular expression characters in terms', () => {
    expect(find('a+b is here', 'a+b')).toBe(0);
    expect(find('aab is here', 'a+b')).toBeNull();
  });

  it('dedupes terms and puts the longest first; no terms matches nothing', () => {
    expect(brandTerms({ name: 'Acme', aliases: ['ACME', ' Acme CRM ', ''] })).toEqual(['Acme CRM', 'Acme']);
    expect(new TermIndex([{ name: '  ' }]).find('  Acme  ')).toEqual([]);
  });
});
