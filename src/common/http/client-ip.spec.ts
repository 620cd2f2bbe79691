import type { Request } from 'express';
import { clientSubject, IPV6_PREFIX_SETTING, subjectOfIp } from './client-ip';

describe('subjectOfIp', () => {
  it('keeps IPv4 addresses, unwraps IPv4-mapped IPv6', () => {
    expect(subjectOfIp('203.0.113.9')).toBe('203.0.113.9');
    expect(subjectOfIp('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(subjectOfIp('::ffff:cb00:7109')).toBe('203.0.113.9');
  });

  it('counts IPv6 by network: every address of one /64 is one subject, another /64 is another', () => {
    const a = subjectOfIp('2001:db8:1:2::1');
    expect(a).toBe('2001:db8:1:2::/64');
    expect(subjectOfIp('2001:db8:1:2:ffff:ffff:ffff:fffe')).toBe(a);
    expect(subjectOfIp('2001:0db8:0001:0002:0000:0000:0000:0009')).toBe(a);
    expect(subjectOfIp('2001:db8:1:3::1')).not.toBe(a);
    expect(subjectOfIp('fe80::1%eth0')).toBe('fe80::/64');
  });

  it('follows the prefix length; 128 is the single address', () => {
    expect(subjectOfIp('2001:db8:1:2::1', 48)).toBe('2001:db8:1::/48');
    expect(subjectOfIp('2001:db8:1:2::1', 128)).toBe('2001:db8:1:2::1');
    expect(subjectOfIp('unknown')).toBe('unknown');
  });

  it('clientSubject reads the prefix from the application setting', () => {
    const req = (prefix?: number) =>
      ({
        ip: '2001:db8:1:2:3::1',
        app: { get: (name: string) => (name === IPV6_PREFIX_SETTING ? prefix : undefined) },
      }) as unknown as Request;
    expect(clientSubject(req())).toBe('2001:db8:1:2::/64');
    expect(clientSubject(req(80))).toBe('2001:db8:1:2:3::/80');
  });
});
