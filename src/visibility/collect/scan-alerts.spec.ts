import { deriveScan } from '../derive/metrics';
import { parseImportFile } from '../import/import-schema';
import { detectAlerts, ScanForAlerts } from './scan-alerts';

/** A scan of 40 answers, `mentions` of them naming Acme, the others Globex; `owned` cited in the first answer. */
function scan(id: string, mentions: number, owned: string[] = []): ScanForAlerts {
  const file = parseImportFile({
    business: 'Acme Inc',
    brand: { name: 'Acme', domains: ['acme.com'] },
    competitors: [{ name: 'Globex', domains: ['globex.com'] }],
    prompts: [{ id: 'p1', text: 'best crm' }],
    scan: {
      id,
      date: '2026-11-20',
      platforms: ['openai'],
      answers: Array.from({ length: 40 }, (_, i) => ({
        prompt_id: 'p1',
        platform: 'openai',
        text: i < mentions ? 'Acme is good.' : 'Globex is good.',
        citations: i === 0 ? owned : [],
      })),
    },
  });
  return { scan_id: id, date: file.scan.date, summary: deriveScan(file).summary, owned_urls: owned };
}

describe('detectAlerts', () => {
  it('reports a significant drop of the mention rate and share of voice, and a competitor newly ahead', () => {
    const kinds = detectAlerts('Acme Inc', scan('s2', 5), scan('s1', 30)).map((a) => a.kind);
    expect(kinds).toEqual([
      'visibility.mention_rate_drop',
      'visibility.share_of_voice_drop',
      'visibility.competitor_ahead',
    ]);
  });

  it('stays quiet on noise, on the first scan, and about a competitor that was already ahead', () => {
    expect(detectAlerts('Acme Inc', scan('s2', 21), scan('s1', 23))).toEqual([]);
    expect(detectAlerts('Acme Inc', scan('s1', 5), null)).toEqual([]);
    expect(detectAlerts('Acme Inc', scan('s2', 9), scan('s1', 10))).toEqual([]);
  });

  it('names the owned pages no longer cited', () => {
    const [a] = detectAlerts(
      'Acme Inc',
      scan('s2', 20, ['https://acme.com/b']),
      scan('s1', 20, ['https://acme.com/a', 'https://acme.com/b']),
    );
    expect(a).toMatchObject({
      kind: 'visibility.owned_citation_lost',
      data: { lost_urls: ['https://acme.com/a'], lost_count: 1 },
    });
  });
});
