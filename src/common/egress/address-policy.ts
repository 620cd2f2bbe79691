import ipaddr from 'ipaddr.js';

/**
 * Which IP addresses a scan may reach. Only global unicast addresses are allowed: loopback,
 * private, link-local (cloud metadata 169.254.169.254), CGNAT, benchmarking, documentation,
 * multicast, reserved, IPv4-mapped/translated IPv6 and every other special range are refused.
 * Pure functions, no network traffic.
 */
export interface AddressPolicy {
  /**
   * Permit loopback (127.0.0.0/8, ::1): SCAN_ALLOW_LOOPBACK_TARGETS_UNSAFE, for tests. A function
   * permits only the loopback addresses it accepts (tests: one fixture address allowed, another
   * loopback address standing in for an internal service).
   */
  allowLoopback: boolean | ((address: string) => boolean);
}

/** Ranges ipaddr.js calls "unicast" that are still not on the public internet. */
const EXTRA_DENIED: [ipaddr.IPv4 | ipaddr.IPv6, number][] = [
  '192.0.0.0/24', // IETF protocol assignments
  '192.0.2.0/24', // TEST-NET-1
  '198.51.100.0/24', // TEST-NET-2
  '203.0.113.0/24', // TEST-NET-3
  '198.18.0.0/15', // benchmarking
  '192.88.99.0/24', // 6to4 relay anycast (deprecated)
  '240.0.0.0/4', // reserved
  '2001:db8::/32', // documentation
  '64:ff9b:1::/48', // local-use NAT64 (RFC 8215)
  '168.63.129.16/32', // Azure platform endpoint (wire server, DNS), reachable from every VM
  '::/96', // IPv4-compatible IPv6 (deprecated; ::a9fe:a9fe is 169.254.169.254)
  'fec0::/10', // site-local (deprecated, still routed inside some networks)
  '100::/64', // discard-only
  '2001:2::/48', // benchmarking
  '2001:10::/28', // ORCHID
  '2001:20::/28', // ORCHIDv2
  '3fff::/20', // documentation (RFC 9637)
  '5f00::/16', // SRv6 segment identifiers
].map((c) => ipaddr.parseCIDR(c));

/** Parses an IP literal as found in a URL host (`[::1]` brackets allowed); undefined if not one. */
export function parseIpLiteral(host: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  const h = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (ipaddr.IPv4.isValidFourPartDecimal(h)) return ipaddr.IPv4.parse(h);
  if (h.includes(':') && ipaddr.IPv6.isValid(h)) return ipaddr.IPv6.parse(h);
  return undefined;
}

/** The name of the special range an address is in, or 'unicast' for a global address. */
export function rangeOf(address: string | ipaddr.IPv4 | ipaddr.IPv6): string {
  const ip = typeof address === 'string' ? parseIpLiteral(address) : address;
  if (!ip) return 'invalid';
  const range = ip.range();
  if (range !== 'unicast') return range;
  return EXTRA_DENIED.some(([net, bits]) => ip.kind() === net.kind() && ip.match(net, bits)) ? 'reserved' : 'unicast';
}

/** Why an address is refused, or undefined when the policy allows it. */
export function refusalOf(address: string | ipaddr.IPv4 | ipaddr.IPv6, policy: AddressPolicy): string | undefined {
  const range = rangeOf(address);
  if (range === 'unicast') return undefined;
  if (range === 'loopback') {
    const allow = policy.allowLoopback;
    if (allow === true) return undefined;
    if (
      typeof allow === 'function' &&
      allow(typeof address === 'string' ? (parseIpLiteral(address)?.toString() ?? address) : address.toString())
    )
      return undefined;
  }
  return range;
}

/** Plain words for the ranges of {@link rangeOf} ("a link-local address"), for messages to people and agents. */
const RANGE_WORDS: Record<string, string> = {
  loopback: 'a loopback address (the server itself)',
  private: 'a private network address',
  linkLocal: 'a link-local address',
  uniqueLocal: 'a private (unique local) IPv6 address',
  carrierGradeNat: 'a carrier-grade NAT address',
  unspecified: 'the unspecified address',
  broadcast: 'a broadcast address',
  multicast: 'a multicast address',
  ipv4Mapped: 'an IPv4 address written as IPv6',
  rfc6145: 'an IPv4 address written as IPv6',
  rfc6052: 'an IPv4 address written as IPv6',
  '6to4': 'a 6to4 tunnel address',
  teredo: 'a Teredo tunnel address',
  reserved: 'a reserved address',
  benchmarking: 'a benchmarking address',
  invalid: 'not a valid address',
};

/** {@link rangeOf}'s range in plain words; other special ranges are "a special-purpose address". */
export function describeRange(range: string): string {
  return RANGE_WORDS[range] ?? 'a special-purpose address';
}

/** Hosts that name this machine whatever DNS says (RFC 6761): never looked up. */
export function isLocalhostName(host: string): boolean {
  const h = host.toLowerCase().replace(/\.+$/, '');
  return (
    h === 'localhost' ||
    h.endsWith('.localhost') ||
    h === 'localhost.localdomain' ||
    h === 'ip6-localhost' ||
    h === 'ip6-loopback'
  );
}
