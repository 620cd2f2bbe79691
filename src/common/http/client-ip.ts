import type { Request } from 'express';

/**
 * The client's IP address: Express's `req.ip`, which reads X-Forwarded-For only when TRUST_PROXY
 * (Express "trust proxy") says so, and the socket address otherwise. IPv4-mapped IPv6 is unwrapped.
 */
export function clientIp(req: Request): string {
  const ip = req.ip ?? req.socket?.remoteAddress ?? 'unknown';
  return ip.startsWith('::ffff:') && ip.includes('.') ? ip.slice(7) : ip;
}
