import { DomainError } from '../errors/domain-error';
import { parseTargetUrl, TargetGuard } from './target-guard';
import { tableResolver } from '../../../test/utils/table-resolver';

describe('parseTargetUrl', () => {
  it('normalises every spelling of an IPv4 host (so the check sees the real address)', () => {
    expect(parseTargetUrl('http://127.1/').hostname).toBe('127.0.0.1');
    expect(parseTargetUrl('http://2130706433/').hostname).toBe('127.0.0.1');
    expect(parseTargetUrl('http://0x7f000001/').hostname).toBe('127.0.0.1');
    expect(parseTargetUrl('http://0177.0.0.1/').hostname).toBe('127.0.0.1');
    expect(parseTargetUrl('http://[::ffff:127.0.0.1]/').hostname).toBe('[::ffff:7f00:1]');
    expect(parseTargetUrl('https://Example.COM:443/a#frag').href).toBe('https://example.com/a');
  });

  it.each([
    'file:///etc/passwd',
    'data:text/html,<h1>x</h1>',
    'javascript:alert(1)',
    'ftp://example.com/',
    'gopher://x/',
  ])('refuses the scheme of %s with target_not_allowed', (u) => {
    expect(() => parseTargetUrl(u)).toThrow(expect.objectContaining({ code: 'target_not_allowed' }));
  });

  it.each([undefined, '', '   ', 42, 'example.com', 'http://', `https://example.com/${'a'.repeat(3000)}`])(
    'refuses %p with bad_request naming url',
    (u) => {
      try {
        parseTargetUrl(u);
        throw new Error('accepted');
      } catch (e) {
        expect(e).toBeInstanceOf(DomainError);
        expect((e as DomainError).code).toBe('bad_request');
        expect((e as DomainError).details).toEqual({ field: 'url' });
      }
    },
  );

  it('refuses credentials in the URL', () => {
    expect(() => parseTargetUrl('http://user:pw@example.com/')).toThrow(
      expect.objectContaining({ code: 'target_not_allowed' }),
    );
  });
});

describe('TargetGuard', () => {
  const resolver = tableResolver({
    'public.test': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
    'mixed.test': ['93.184.216.34', '10.1.2.3'],
    'metadata.test': ['169.254.169.254'],
    'mapped.test': ['::ffff:127.0.0.1'],
    'cgnat.test': ['100.64.1.1'],
  });
  const guard = new TargetGuard({ allowLoopback: false }, resolver);

  it('allows a host whose every address is public', async () => {
    await expect(guard.assertAllowed(new URL('https://public.test/'))).resolves.toBeUndefined();
  });

  it.each([
    ['http://mixed.test/', 'does not resolve to a public address'],
    ['http://metadata.test/', 'does not resolve to a public address'],
    ['http://mapped.test/', 'does not resolve to a public address'],
    ['http://cgnat.test/', 'does not resolve to a public address'],
    ['http://127.0.0.1/', 'loopback'],
    ['http://[::1]:8080/', 'loopback'],
    ['http://localhost./', 'loopback'],
    ['http://foo.localhost/', 'loopback'],
    ['http://169.254.169.254/latest/meta-data/', 'linkLocal'],
  ])('refuses %s (%s) with target_not_allowed', async (u, range) => {
    const err = await guard.assertAllowed(parseTargetUrl(u)).catch((e: DomainError) => e);
    expect(err).toBeInstanceOf(DomainError);
    expect((err as DomainError).code).toBe('target_not_allowed');
    expect(String((err as DomainError).details.reason)).toContain(range);
  });

  it('names an address typed as it is once, and in brackets only where it was written otherwise', async () => {
    const typed = await guard.assertAllowed(parseTargetUrl('http://127.0.0.1/')).catch((e: DomainError) => e);
    expect((typed as DomainError).message).toBe('Scanning 127.0.0.1 is not allowed: 127.0.0.1 is loopback.');
    const bracketed = await guard.assertAllowed(parseTargetUrl('http://[::1]/')).catch((e: DomainError) => e);
    expect((bracketed as DomainError).details.reason).toBe('[::1] is loopback (::1)');
  });

  it('never tells the client what a refused name resolves to (the verdict keeps it for logs)', async () => {
    const err = (await guard
      .assertAllowed(parseTargetUrl('http://metadata.test/'))
      .catch((e: DomainError) => e)) as DomainError;
    expect(err.message).not.toMatch(/169\.254|linkLocal/);
    expect(JSON.stringify(err.details)).not.toMatch(/169\.254|linkLocal/);
    const v = await guard.verdict('http://metadata.test/x');
    expect(v).toMatchObject({ allowed: false, detail: 'metadata.test is linkLocal (169.254.169.254)' });
  });

  it('never resolves IP literals or localhost names', () => {
    expect(resolver.asked.filter((h) => /localhost|^\d|:/.test(h))).toEqual([]);
  });

  it('an unknown name is target_unreachable', async () => {
    await expect(guard.assertAllowed(new URL('http://nowhere.test/'))).rejects.toMatchObject({
      code: 'target_unreachable',
    });
  });

  it('memoises verdicts per host for the scan', async () => {
    const r = tableResolver({ 'once.test': ['93.184.216.34'] });
    const g = new TargetGuard({ allowLoopback: false }, r);
    await g.verdict('http://once.test/a');
    await g.verdict('https://once.test/b.png');
    expect(r.asked).toEqual(['once.test']);
  });
});
