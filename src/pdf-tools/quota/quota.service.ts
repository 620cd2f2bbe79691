import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { createHmac } from 'node:crypto';
import { AppConfig } from '../../common/config/env';
import { InstanceSecretsService } from '../../common/secrets/instance-secrets.service';
import { nextUtcMidnight, QuotaClock, utcDay } from './quota-clock';
import { QUOTA_STORE, QuotaScope, QuotaStore, REFUNDS_TOOL } from './quota.store';

export type QuotaChannel = 'web' | 'mcp';

/** State of one caller's quota for one tool today. */
export interface QuotaState {
  tool: string;
  limit: number;
  remaining: number;
  resets_at: string;
}

export interface QuotaDecision extends QuotaState {
  allowed: boolean;
}

/** What a consume() reserved, to pass back to refund(). */
export interface QuotaTicket {
  day: string;
  tool: string;
  /** The counters incremented: the IP pool and the channel's own (MCP per IP, web per device). */
  subjects: [pool: string, channel: string];
  refundSubject: string;
}

interface Plan {
  day: string;
  resetsAt: Date;
  pool: string;
  channel: string;
  refund: string;
  poolCap: number;
  channelCap: number;
}

/**
 * Per-tool daily quotas of the PDF tools (spec section 8), per client IP and UTC day:
 * - MCP: at most PDF_MCP_DAILY_CAP calls per tool, and only while the IP's combined usage
 *   (website and MCP) of that tool is below PDF_DAILY_LIMIT;
 * - web: at most PDF_DAILY_LIMIT per device and tool, with an IP pool cap of 4 x PDF_DAILY_LIMIT;
 *   a signed-in user (userId) counts per account instead, at most PDF_DAILY_LIMIT_SIGNED_IN (default
 *   4 x PDF_DAILY_LIMIT), the IP pool cap raised to at least that;
 * - reserve-then-refund: a call consumes before it runs; a failed call is refunded, up to
 *   PDF_DAILY_REFUNDS refunds per IP and day (after that failures count);
 * - counters are keyed by an HMAC (QUOTA_HASH_SECRET, or a secret generated once and kept in the
 *   database) of the IP or device id, never the IP itself.
 * This class is the policy; the counting is the QuotaStore's (PostgreSQL, or Redis when REDIS_URL
 * is set), atomic there, so concurrent calls on any number of instances never exceed a cap.
 */
@Injectable()
export class QuotaService implements OnModuleInit {
  private secret = '';

  constructor(
    private readonly config: AppConfig,
    @Inject(QUOTA_STORE) private readonly store: QuotaStore,
    private readonly clock: QuotaClock,
    private readonly secrets: InstanceSecretsService,
  ) {}

  /** QUOTA_HASH_SECRET, or the deployment's generated secret: the same on every instance and after restarts. */
  async onModuleInit(): Promise<void> {
    this.secret = this.config.QUOTA_HASH_SECRET ?? (await this.secrets.get('quota_hash_secret'));
  }

  /** Keyed hash of an IP or device id (hex, 256 bits). */
  hash(kind: string, value: string): string {
    return createHmac('sha256', this.secret).update(`${kind}\u0000${value}`).digest('hex');
  }

  private plan(channel: QuotaChannel, ip: string, deviceId?: string, userId?: string): Plan {
    const now = this.clock.now();
    const ipHash = this.hash('ip', ip);
    const limit = this.config.PDF_DAILY_LIMIT;
    const base = { day: utcDay(now), resetsAt: nextUtcMidnight(now), pool: `ip:${ipHash}`, refund: `refund:${ipHash}` };
    if (channel === 'mcp')
      return {
        ...base,
        channel: `mcp:${ipHash}`,
        poolCap: limit,
        channelCap: Math.min(this.config.PDF_MCP_DAILY_CAP, limit),
      };
    // A signed-in user counts per account (any device) with the higher limit; the IP pool grows to hold it.
    if (userId) {
      const mine = signedInDailyLimit(this.config);
      return {
        ...base,
        channel: `user:${this.hash('user', userId)}`,
        poolCap: Math.max(4 * limit, mine),
        channelCap: mine,
      };
    }
    if (!deviceId) throw new Error('The web channel counts per device: deviceId is required.');
    return { ...base, channel: `dev:${this.hash('dev', deviceId)}`, poolCap: 4 * limit, channelCap: limit };
  }

  private state(tool: string, p: Plan, poolUsed: number, channelUsed: number): QuotaState {
    return {
      tool,
      limit: Math.min(p.channelCap, p.poolCap),
      remaining: Math.max(0, Math.min(p.channelCap - channelUsed, p.poolCap - poolUsed)),
      resets_at: p.resetsAt.toISOString(),
    };
  }

  /** Reserves one call of `tool`; `allowed: false` when a cap is reached (nothing reserved then). */
  async consume(
    channel: QuotaChannel,
    tool: string,
    ip: string,
    deviceId?: string,
    userId?: string,
  ): Promise<{ decision: QuotaDecision; ticket?: QuotaTicket }> {
    const p = this.plan(channel, ip, deviceId, userId);
    const counters = [
      { subject: p.pool, cap: p.poolCap },
      { subject: p.channel, cap: p.channelCap },
    ];
    const { allowed, used } = await this.store.reserve(scope(p), tool, counters, this.ttlSeconds(p));
    const decision = { allowed, ...this.state(tool, p, used[0], used[1]) };
    if (!allowed) return { decision };
    return { decision, ticket: { day: p.day, tool, subjects: [p.pool, p.channel], refundSubject: p.refund } };
  }

  /**
   * Gives a reserved call back after a failure, if the IP still has refunds left today.
   * Returns whether it was refunded and the quota state after.
   */
  async refund(
    channel: QuotaChannel,
    ticket: QuotaTicket,
    ip: string,
    deviceId?: string,
    userId?: string,
  ): Promise<{ refunded: boolean; state: QuotaState }> {
    const p = this.plan(channel, ip, deviceId, userId);
    // Refund against the day the call was reserved on (a call may straddle midnight).
    const refunded = await this.store.refund(
      { day: ticket.day, group: ticket.subjects[0] },
      ticket.tool,
      ticket.subjects,
      { subject: ticket.refundSubject, cap: this.config.PDF_DAILY_REFUNDS },
      this.ttlSeconds(p),
    );
    return { refunded, state: await this.status(channel, ticket.tool, ip, deviceId, userId) };
  }

  /**
   * A refund by the ticket alone, for work that outlives its request (a queued OCR job keeps no IP
   * or device id, only the ticket's keyed hashes). Whether it was refunded.
   */
  async refundTicket(ticket: QuotaTicket): Promise<boolean> {
    const endOfDay = Date.parse(`${ticket.day}T00:00:00Z`) + 86_400_000;
    const ttl = Math.max(60, Math.ceil((endOfDay - this.clock.now().getTime()) / 1000) + 3600);
    return this.store.refund(
      { day: ticket.day, group: ticket.subjects[0] },
      ticket.tool,
      ticket.subjects,
      { subject: ticket.refundSubject, cap: this.config.PDF_DAILY_REFUNDS },
      ttl,
    );
  }

  /** The quota state without consuming. */
  async status(
    channel: QuotaChannel,
    tool: string,
    ip: string,
    deviceId?: string,
    userId?: string,
  ): Promise<QuotaState> {
    const p = this.plan(channel, ip, deviceId, userId);
    const [poolUsed, channelUsed] = await this.store.read(scope(p), tool, [p.pool, p.channel]);
    return this.state(tool, p, poolUsed, channelUsed);
  }

  /** Refunds the IP has used today. */
  async refundsUsed(ip: string): Promise<number> {
    const p = this.plan('mcp', ip);
    const [used] = await this.store.read(scope(p), REFUNDS_TOOL, [p.refund]);
    return used;
  }

  /** Counters live until the end of their day plus an hour (late refunds). */
  private ttlSeconds(p: Plan): number {
    return Math.max(60, Math.ceil((p.resetsAt.getTime() - this.clock.now().getTime()) / 1000) + 3600);
  }
}

/** The web channel's daily limit per tool for a signed-in user: PDF_DAILY_LIMIT_SIGNED_IN, else 4 x PDF_DAILY_LIMIT. */
export const signedInDailyLimit = (c: AppConfig): number => c.PDF_DAILY_LIMIT_SIGNED_IN ?? 4 * c.PDF_DAILY_LIMIT;

/** A caller's counters share its IP pool as group. */
const scope = (p: Plan): QuotaScope => ({ day: p.day, group: p.pool });
