import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '../../common/config/env';
import type { AddressPolicy } from '../../common/egress/address-policy';
import { EgressGuard, Resolver, systemResolver } from '../../common/egress/egress-guard';
import { EgressProxy } from '../../common/egress/egress-proxy';
import { TargetGuard } from '../../common/egress/target-guard';

/**
 * Where scans may connect: the address policy (public internet; loopback too with the tests-only
 * SCAN_ALLOW_LOOPBACK_TARGETS_UNSAFE), the resolver, the per-scan page-level guard and the egress
 * proxy every Chromium request goes through. One place, so the page-level check and the proxy
 * can never disagree on the policy.
 */
@Injectable()
export class ScanEgress implements OnApplicationShutdown {
  /** DNS resolver (replaceable in tests so they never leave loopback). */
  resolver: Resolver = systemResolver;
  /** The address policy (replaceable in tests, e.g. loopback allowed for one fixture address only). */
  policy: AddressPolicy;
  readonly proxy = new EgressProxy(() => this.guard());

  constructor(config: AppConfig) {
    this.policy = { allowLoopback: config.SCAN_ALLOW_LOOPBACK_TARGETS_UNSAFE };
  }

  /** The connection-level check (no memo: every call resolves again). */
  guard(): EgressGuard {
    return new EgressGuard(this.policy, this.resolver);
  }

  /** The page-level guard of one scan (its verdicts are memoised for the scan only). */
  targetGuard(): TargetGuard {
    return new TargetGuard(this.policy, this.resolver);
  }

  /** Starts the proxy if needed; returns Chromium's `--proxy-server` value. */
  async proxyUrl(): Promise<string> {
    await this.proxy.start();
    return this.proxy.url;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.proxy.close();
  }
}
