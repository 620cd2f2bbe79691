import type { Request } from 'express';
import ipaddr from 'ipaddr.js';

/**
 * The client's IP address: Express's `req.ip`, which reads X-Forwarded-For only when TRUST_PROXY
 * (Express "trust proxy") says so, and the socket address otherwise. IPv4-mapped IPv6 is unwrapped.
 */
export function clientIp(req: Request): string {
  const ip = req.ip ?? req.socket?.remoteAddress ?? 'unknown';
  return ip.startsWith('::ffff:') && ip.includes('.') ? ip.slice(7) : ip;
}

/** Express app setting holding IPV6_CLIENT_PREFIX (set by configureApp). */
export const IPV6_PREFIX_SETTING = 'beacon ipv6 client prefix';

/** Prefix length used when no application setting is present. */
export const DEFAULT_IPV6_CLIENT_PREFIX = 64;

/**
 * Who a client is for rate limits and quotas: an IPv4 address as is, an IPv6 address as its network
 * of `prefix` bits (`2001:db8:1:2::/64`). One subscriber usually gets a whole /64, so counting single
 * IPv6 addresses would give one client 2^64 fresh allowances.
 */
export function subjectOfIp(ip: string, prefix: number = DEFAULT_IPV6_CLIENT_PREFIX): string {
  const bare = ip.replace(/%.*$/, ''); // zone id of a link-local address
  if (!ipaddr.IPv6.isValid(bare)) return ip; // IPv4 (or 'unknown')
  const v6 = ipaddr.IPv6.parse(bare);
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
  if (prefix >= 128) return v6.toString();
  return `${ipaddr.IPv6.networkAddressFromCIDR(`${v6.toString()}/${prefix}`).toString()}/${prefix}`;
}

/**
 * The rate-limit and quota subject of a request: {@link subjectOfIp} of {@link clientIp}, with the
 * IPv6 prefix length of the application (IPV6_CLIENT_PREFIX). Every per-client limit uses this.
 */
export function clientSubject(req: Request): string {
  const setting: unknown = req.app?.get(IPV6_PREFIX_SETTING);
  return subjectOfIp(clientIp(req), typeof setting === 'number' ? setting : DEFAULT_IPV6_CLIENT_PREFIX);
}
