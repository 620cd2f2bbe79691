import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../common/config/env';
import type { AddressPolicy } from '../../common/egress/address-policy';
import { EgressGuard, Resolver, systemResolver } from '../../common/egress/egress-guard';
import { CheckedUrl, FetchedPdf, FetchProgress, UrlFetcher } from './url-fetcher';

/**
 * The `url` inputs of tool calls: the scans' address policy (public internet only; loopback too
 * with the tests-only SCAN_ALLOW_LOOPBACK_TARGETS_UNSAFE) through the one {@link EgressGuard},
 * and the file limit and PDF_URL_* deadlines of the settings.
 */
@Injectable()
export class UrlInputService {
  /** The address policy (replaceable in tests). */
  policy: AddressPolicy;
  /** DNS resolver (replaceable in tests so they never leave loopback). */
  resolver: Resolver = systemResolver;

  constructor(private readonly config: AppConfig) {
    this.policy = { allowLoopback: config.SCAN_ALLOW_LOOPBACK_TARGETS_UNSAFE };
  }

  private fetcher(): UrlFetcher {
    const c = this.config;
    return new UrlFetcher(new EgressGuard(this.policy, this.resolver), {
      maxBytes: c.PDF_MAX_FILE_BYTES,
      connectTimeoutMs: c.PDF_URL_CONNECT_TIMEOUT_MS,
      totalTimeoutMs: c.PDF_URL_TIMEOUT_MS,
      maxRedirects: c.PDF_URL_MAX_REDIRECTS,
    });
  }

  /** Parse and first-hop check, no byte fetched (before the quota). */
  check(raw: string, label: string): Promise<CheckedUrl> {
    return this.fetcher().check(raw, label);
  }

  /** The download (after the quota). */
  fetch(checked: CheckedUrl, label: string, onProgress?: FetchProgress): Promise<FetchedPdf> {
    return this.fetcher().fetch(checked, label, onProgress);
  }
}
