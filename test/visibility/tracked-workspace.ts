import type { AiPlatform } from '../../src/common/ai/ai.types';
import { TrackingService } from '../../src/visibility/tracking/tracking.service';
import type { TestApp } from '../utils/test-app';

/** What a workspace's collection scans ask: on which platforms, how many samples, which prompts, within what budget. */
export interface TrackedSetUp {
  platforms: readonly AiPlatform[];
  samples: number;
  prompts: string[];
  budget_calls: number;
  budget_usd: number;
}

/**
 * A new workspace (`slug`, with an API key) that tracks Acme against Globex, scans by hand only, and
 * the prompts of `o` (enabled, untagged); answers its id. Shared by the collection e2e tests and bench.
 */
export async function trackedWorkspace(t: TestApp, slug: string, o: TrackedSetUp): Promise<string> {
  await t.createKey(slug);
  const [{ id }] = await t.dataSource.query<Array<{ id: string }>>('SELECT id FROM workspaces WHERE slug = $1', [slug]);
  const tracking = t.app.get(TrackingService);
  await tracking.update(id, {
    business: 'Acme Inc',
    brand: { name: 'Acme', aliases: [], domains: ['acme.com'] },
    competitors: [{ name: 'Globex', aliases: [], domains: ['globex.com'] }],
    platforms: [...o.platforms],
    samples: o.samples,
    schedule: 'manual',
    budget_calls: o.budget_calls,
    budget_usd: o.budget_usd,
  });
  await tracking.addPrompts(
    id,
    o.prompts.map((text, i) => ({
      where: `line ${i + 1}`,
      prompt: { text, tags: [], intent: null, country: null, enabled: true },
    })),
  );
  return id;
}
