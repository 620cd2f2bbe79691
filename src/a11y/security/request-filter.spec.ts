import { TargetGuard } from '../../common/egress/target-guard';
import { decideRequest, InterceptedRequest } from './request-filter';
import { tableResolver } from '../../../test/utils/table-resolver';

const req = (
  url: string,
  opts: { navigation?: boolean; redirects?: number; type?: string } = {},
): InterceptedRequest => ({
  url: () => url,
  isNavigationRequest: () => opts.navigation ?? false,
  resourceType: () => opts.type ?? (opts.navigation ? 'document' : 'image'),
  redirectChain: () => new Array(opts.redirects ?? 0).fill({}),
});

describe('request interception hook (decideRequest)', () => {
  const resolver = tableResolver({ 'public.test': ['93.184.216.34'], 'inside.test': ['192.168.0.10'] });
  const guard = new TargetGuard({ allowLoopback: false }, resolver);

  it('checks every redirect hop with the address check', async () => {
    const ok = await decideRequest(req('http://public.test/next', { navigation: true, redirects: 1 }), guard);
    expect(ok).toMatchObject({ allow: true, navigation: true, redirect: true });
    const bad = await decideRequest(req('http://inside.test/admin', { navigation: true, redirects: 2 }), guard);
    expect(bad).toMatchObject({ allow: false, navigation: true, redirect: true });
    expect(bad.reason).toBe('inside.test does not resolve to a public address');
    expect(bad.detail).toContain('192.168.0.10');
    const meta = await decideRequest(req('http://169.254.169.254/latest/', { navigation: true, redirects: 1 }), guard);
    expect(meta).toMatchObject({ allow: false });
    expect(meta.reason).toContain('linkLocal');
  });

  it('checks subresources and frames', async () => {
    expect(await decideRequest(req('http://public.test/a.png'), guard)).toMatchObject({
      allow: true,
      navigation: false,
    });
    expect(await decideRequest(req('http://10.0.0.5/a.js', { type: 'script' }), guard)).toMatchObject({ allow: false });
    expect(await decideRequest(req('http://[::ffff:a00:1]/frame', { navigation: true }), guard)).toMatchObject({
      allow: false,
    });
    expect(await decideRequest(req('http://inside.test/api', { type: 'fetch' }), guard)).toMatchObject({
      allow: false,
    });
  });

  it('refuses other schemes; inline data:/blob: only as subresources', async () => {
    expect(await decideRequest(req('file:///etc/passwd'), guard)).toMatchObject({ allow: false });
    expect(await decideRequest(req('ftp://public.test/x'), guard)).toMatchObject({ allow: false });
    expect(await decideRequest(req('data:image/png;base64,AAAA'), guard)).toMatchObject({ allow: true });
    expect(await decideRequest(req('data:text/html,<h1>x</h1>', { navigation: true }), guard)).toMatchObject({
      allow: false,
    });
  });
});
