import type { AiProvidersService } from '../common/ai';
import { TRACKABLE_PLATFORMS } from '../visibility/tracking/tracking.types';
import type { PlatformStatus } from './pages/tracking.pages';

/** Each trackable platform with whether (and by which setting or key) it is configured, for the tracking and scans pages. */
export async function trackablePlatforms(ai: AiProvidersService, workspaceId: string): Promise<PlatformStatus[]> {
  const st = await ai.status(workspaceId);
  return TRACKABLE_PLATFORMS.map((p) => {
    const s = st.find((x) => x.platform === p);
    return {
      platform: p,
      configured: s?.configured ?? false,
      setting: s?.setting ?? '',
      source: s?.keySource === 'workspace' ? 'workspace key' : s?.keySource === 'settings' ? s.setting : undefined,
    };
  });
}
