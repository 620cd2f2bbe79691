import { Injectable, OnModuleInit } from '@nestjs/common';
import { createHmac } from 'node:crypto';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../common/config/env';
import { RedisService } from '../../common/redis/redis.service';
import { InstanceSecretsService } from '../../common/secrets/instance-secrets.service';
import { nextUtcMidnight, QuotaClock, utcDay } from './quota-clock';

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
 * - reserve-then-refund: a call consumes before it runs; a failed call is refunded, up to
 *   PDF_DAILY_REFUNDS refunds per IP and day (after that failures count);
 * - counters are keyed by an HMAC (QUOTA_HASH_SECRET, or a secret generated once and kept in the
 *   database) of the IP or device id, never the IP itself;
 *   atomic in PostgreSQL (row locks in one transaction) or Redis (one Lua script), so concurrent
 *   calls on any number of instances never exceed a cap.
 */
@Injectable()
export class QuotaService implements OnModuleInit {
  private secret = '';

  constructor(
    private readonly config: AppConfig,
    private readonly redis: RedisService,
    private readonly db: DataSource,
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

  private plan(channel: QuotaChannel, ip: string, deviceId?: string): Plan {
    const now = this.clock.now();
    const ipHash = this.hash('ip', ip);
    const limit = this.config.PDF_DAILY_LIMIT;
    const base = { day: utcDay(now), resetsAt: nextUtcMidnight(now), pool: `ip:${ipHash}`, refund: `refund:${ipHash}` };
    if (channel === 'mcp') return { ...base, channel: `mcp:${ipHash}`, poolCap: limit, channelCap: Math.min(this.config.PDF_MCP_DAILY_CAP, limit) };
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
  async consume(channel: QuotaChannel, tool: string, ip: string, deviceId?: string): Promise<{ decision: QuotaDecision; ticket?: QuotaTicket }> {
    const p = this.plan(channel, ip, deviceId);
    const ttl = this.ttlSeconds(p);
    let allowed: boolean;
    let poolUsed: number;
    let channelUsed: number;
    if (this.redis.client) {
      const r = (await this.redis.client.eval(
        CONSUME_LUA,
        2,
        this.redisKey(p, p.pool, tool),
        this.redisKey(p, p.channel, tool),
        p.poolCap,
        p.channelCap,
        ttl,
      )) as [number, number, number];
      [allowed, poolUsed, channelUsed] = [r[0] === 1, r[1], r[2]];
    } else {
      ({ allowed, poolUsed, channelUsed } = await this.consumePg(p, tool));
    }
    const decision = { allowed, ...this.state(tool, p, poolUsed, channelUsed) };
    if (!allowed) return { decision };
    return { decision, ticket: { day: p.day, tool, subjects: [p.pool, p.channel], refundSubject: p.refund } };
  }

  /**
   * Gives a reserved call back after a failure, if the IP still has refunds left today.
   * Returns whether it was refunded and the quota state after.
   */
  async refund(channel: QuotaChannel, ticket: QuotaTicket, ip: string, deviceId?: string): Promise<{ refunded: boolean; state: QuotaState }> {
    const p = this.plan(channel, ip, deviceId);
    // Refund against the day the call was reserved on (a call may straddle midnight).
    const day = ticket.day;
    const tool = ticket.tool;
    let refunded: boolean;
    if (this.redis.client) {
      const keyed = { ...p, day };
      const r = (await this.redis.client.eval(
        REFUND_LUA,
        3,
        this.redisKey(keyed, ticket.refundSubject, '*'),
        this.redisKey(keyed, ticket.subjects[0], tool),
        this.redisKey(keyed, ticket.subjects[1], tool),
        this.config.PDF_DAILY_REFUNDS,
        this.ttlSeconds(p),
      )) as number;
      refunded = r === 1;
    } else {
      refunded = await this.refundPg(day, ticket);
    }
    return { refunded, state: await this.status(channel, tool, ip, deviceId) };
  }

  /** The quota state without consuming. */
  async status(channel: QuotaChannel, tool: string, ip: string, deviceId?: string): Promise<QuotaState> {
    const p = this.plan(channel, ip, deviceId);
    let poolUsed = 0;
    let channelUsed = 0;
    if (this.redis.client) {
      const [a, b] = await this.redis.client.mget(this.redisKey(p, p.pool, tool), this.redisKey(p, p.channel, tool));
      poolUsed = Number(a ?? 0);
      channelUsed = Number(b ?? 0);
    } else {
      const rows: { subject: string; used: number }[] = await this.db.query(
        `SELECT subject, used FROM pdf_quota_usage WHERE day = $1 AND tool = $2 AND subject = ANY($3)`,
        [p.day, tool, [p.pool, p.channel]],
      );
      for (const r of rows) {
        if (r.subject === p.pool) poolUsed = Number(r.used);
        else channelUsed = Number(r.used);
      }
    }
    return this.state(tool, p, poolUsed, channelUsed);
  }

  /** Refunds the IP has used today. */
  async refundsUsed(ip: string): Promise<number> {
    const p = this.plan('mcp', ip);
    if (this.redis.client) return Number((await this.redis.client.get(this.redisKey(p, p.refund, '*'))) ?? 0);
    const rows: { used: number }[] = await this.db.query(`SELECT used FROM pdf_quota_usage WHERE day = $1 AND subject = $2 AND tool = '*'`, [
      p.day,
      p.refund,
    ]);
    return Number(rows[0]?.used ?? 0);
  }

  private redisKey(p: Pick<Plan, 'day' | 'pool'>, subject: string, tool: string): string {
    // The IP hash as hash tag: every key of one script lands in the same Redis Cluster slot.
    return this.redis.key('pdfq', p.day, `{${p.pool}}`, subject, tool);
  }

  /** Counters live until the end of their day plus an hour (late refunds). */
  private ttlSeconds(p: Plan): number {
    return Math.max(60, Math.ceil((p.resetsAt.getTime() - this.clock.now().getTime()) / 1000) + 3600);
  }

  private async consumePg(p: Plan, tool: string): Promise<{ allowed: boolean; poolUsed: number; channelUsed: number }> {
    return this.db.transaction(async (m) => {
      const subjects = [p.pool, p.channel].sort();
      await m.query(
        `INSERT INTO pdf_quota_usage (day, subject, tool, used) VALUES ($1, $2, $4, 0), ($1, $3, $4, 0) ON CONFLICT DO NOTHING`,
        [p.day, subjects[0], subjects[1], tool],
      );
      const rows: { subject: string; used: number }[] = await m.query(
        `SELECT subject, used FROM pdf_quota_usage WHERE day = $1 AND tool = $2 AND subject = ANY($3) ORDER BY subject FOR UPDATE`,
        [p.day, tool, subjects],
      );
      const used = new Map(rows.map((r) => [r.subject, Number(r.used)]));
      const poolUsed = used.get(p.pool) ?? 0;
      const channelUsed = used.get(p.channel) ?? 0;
      if (poolUsed >= p.poolCap || channelUsed >= p.channelCap) return { allowed: false, poolUsed, channelUsed };
      await m.query(`UPDATE pdf_quota_usage SET used = used + 1 WHERE day = $1 AND tool = $2 AND subject = ANY($3)`, [p.day, tool, subjects]);
      return { allowed: true, poolUsed: poolUsed + 1, channelUsed: channelUsed + 1 };
    });
  }

  private async refundPg(day: string, ticket: QuotaTicket): Promise<boolean> {
    return this.db.transaction(async (m) => {
      await m.query(`INSERT INTO pdf_quota_usage (day, subject, tool, used) VALUES ($1, $2, '*', 0) ON CONFLICT DO NOTHING`, [
        day,
        ticket.refundSubject,
      ]);
      const rows: { used: number }[] = await m.query(
        // A SELECT around the UPDATE: TypeORM answers a bare UPDATE with [rows, count].
        `WITH u AS (UPDATE pdf_quota_usage SET used = used + 1 WHERE day = $1 AND subject = $2 AND tool = '*' AND used < $3 RETURNING used)
         SELECT used FROM u`,
        [day, ticket.refundSubject, this.config.PDF_DAILY_REFUNDS],
      );
      if (rows.length === 0) return false;
      await m.query(`UPDATE pdf_quota_usage SET used = GREATEST(used - 1, 0) WHERE day = $1 AND tool = $2 AND subject = ANY($3)`, [
        day,
        ticket.tool,
        ticket.subjects,
      ]);
      return true;
    });
  }
}

/** KEYS: pool, channel. ARGV: pool cap, channel cap, ttl. Returns {allowed, pool used, channel used}. */
const CONSUME_LUA = `
local pool = tonumber(redis.call('GET', KEYS[1]) or '0')
local chan = tonumber(redis.call('GET', KEYS[2]) or '0')
if pool >= tonumber(ARGV[1]) or chan >= tonumber(ARGV[2]) then return {0, pool, chan} end
pool = redis.call('INCR', KEYS[1])
chan = redis.call('INCR', KEYS[2])
redis.call('EXPIRE', KEYS[1], ARGV[3])
redis.call('EXPIRE', KEYS[2], ARGV[3])
return {1, pool, chan}`;

/** KEYS: refunds, pool, channel. ARGV: refund allowance, ttl. Returns 1 when refunded. */
const REFUND_LUA = `
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
if used >= tonumber(ARGV[1]) then return 0 end
redis.call('INCR', KEYS[1])
redis.call('EXPIRE', KEYS[1], ARGV[2])
for i = 2, 3 do
  local v = tonumber(redis.call('GET', KEYS[i]) or '0')
  if v > 0 then redis.call('DECR', KEYS[i]) end
end
return 1`;
