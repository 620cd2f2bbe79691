import { isLocalhostName, parseIpLiteral, rangeOf, refusalOf } from './address-policy';

const strict = { allowLoopback: false };
const loose = { allowLoopback: true };

describe('address policy (no network)', () => {
  it.each([['8.8.8.8'], ['93.184.216.34'], ['2606:4700:4700::1111'], ['2a00:1450:4001:80b::200e']])(
    'allows the public address %s',
    (ip) => {
      expect(refusalOf(ip, strict)).toBeUndefined();
    },
  );

  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['::1', 'loopback'],
    ['169.254.169.254', 'linkLocal'], // cloud metadata
    ['fe80::1', 'linkLocal'],
    ['fd00:ec2::254', 'uniqueLocal'], // AWS metadata over IPv6
    ['10.0.0.1', 'private'],
    ['172.16.5.4', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['100.100.100.200', 'carrierGradeNat'], // Alibaba metadata
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['ff02::1', 'multicast'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['198.18.0.1', 'reserved'],
    ['192.0.2.10', 'reserved'],
    ['240.0.0.1', 'reserved'],
    ['2001:db8::1', 'reserved'],
    ['::ffff:127.0.0.1', 'ipv4Mapped'],
    ['::ffff:8.8.8.8', 'ipv4Mapped'],
    ['::ffff:169.254.169.254', 'ipv4Mapped'],
    ['64:ff9b::a00:1', 'rfc6052'],
    ['2002:7f00:1::', '6to4'],
    ['::a9fe:a9fe', 'reserved'], // IPv4-compatible spelling of 169.254.169.254
    ['::7f00:1', 'reserved'], // IPv4-compatible spelling of 127.0.0.1
    ['fec0::1', 'reserved'], // site-local
    ['feff:ffff::1', 'reserved'],
    ['64:ff9b:1::a9fe:a9fe', 'reserved'], // local-use NAT64
    ['64:ff9b:1:ffff::1', 'reserved'],
    ['168.63.129.16', 'reserved'], // Azure wire server
    ['2001:2::1', 'benchmarking'],
    ['3fff::1', 'reserved'],
  ])('refuses %s (%s)', (ip, range) => {
    expect(rangeOf(ip)).toBe(range);
    expect(refusalOf(ip, strict)).toBe(range);
  });

  it('the unsafe test setting permits loopback only, never mapped or private addresses', () => {
    expect(refusalOf('127.0.0.1', loose)).toBeUndefined();
    expect(refusalOf('::1', loose)).toBeUndefined();
    expect(refusalOf('::ffff:127.0.0.1', loose)).toBe('ipv4Mapped');
    expect(refusalOf('10.0.0.1', loose)).toBe('private');
    expect(refusalOf('169.254.169.254', loose)).toBe('linkLocal');
  });

  it('a loopback predicate permits only the loopback addresses it accepts', () => {
    const one = { allowLoopback: (a: string) => a === '127.0.0.1' };
    expect(refusalOf('127.0.0.1', one)).toBeUndefined();
    expect(refusalOf('127.0.0.2', one)).toBe('loopback');
    expect(refusalOf('::1', one)).toBe('loopback');
    expect(refusalOf('10.0.0.1', one)).toBe('private');
  });

  it('parses URL host literals, with brackets for IPv6; names are not literals', () => {
    expect(parseIpLiteral('[::1]')?.toString()).toBe('::1');
    expect(parseIpLiteral('127.0.0.1')?.toString()).toBe('127.0.0.1');
    expect(parseIpLiteral('example.com')).toBeUndefined();
    expect(parseIpLiteral('127.1')).toBeUndefined(); // URL parsing canonicalises these first
    expect(rangeOf('not-an-ip')).toBe('invalid');
    expect(refusalOf('not-an-ip', loose)).toBe('invalid');
  });

  it('knows the names of this machine', () => {
    for (const h of ['localhost', 'LOCALHOST', 'localhost.', 'api.localhost', 'ip6-localhost'])
      expect(isLocalhostName(h)).toBe(true);
    for (const h of ['localhost.example.com', 'notlocalhost', 'example.com']) expect(isLocalhostName(h)).toBe(false);
  });
});
