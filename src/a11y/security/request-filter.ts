import type { TargetGuard } from '../../common/egress/target-guard';

/** The parts of a puppeteer HTTPRequest the filter reads (so it can be unit tested without a browser). */
export interface InterceptedRequest {
  url(): string;
  isNavigationRequest(): boolean;
  resourceType(): string;
  /** Earlier hops when this request follows a redirect. */
  redirectChain(): readonly unknown[];
}

export interface FilterDecision {
  allow: boolean;
  /** Why it was refused (safe for the client). */
  reason?: string;
  /** The refused address and range (for logs). */
  detail?: string;
  /** A refused navigation of a frame (top or child), incl. redirect hops. */
  navigation: boolean;
  redirect: boolean;
}

/** Schemes a page may load without touching the network (inline content). Never as a navigation. */
const INLINE_SCHEMES = new Set(['data:', 'blob:']);

/**
 * Decides one request the page is about to make: every http(s) request (navigations, redirect hops,
 * subresources, frames) goes through the SSRF guard; inline data:/blob: subresources are allowed;
 * every other scheme, and inline schemes as navigations, is refused.
 */
export async function decideRequest(req: InterceptedRequest, guard: TargetGuard): Promise<FilterDecision> {
  const url = req.url();
  const navigation = req.isNavigationRequest();
  const redirect = req.redirectChain().length > 0;
  let scheme: string;
  try {
    scheme = new URL(url).protocol;
  } catch {
    return { allow: false, reason: 'malformed URL', navigation, redirect };
  }
  if (INLINE_SCHEMES.has(scheme) && !navigation) return { allow: true, navigation, redirect };
  const v = await guard.verdict(url);
  return v.allowed
    ? { allow: true, navigation, redirect }
    : { allow: false, reason: v.reason, detail: v.detail, navigation, redirect };
}
