import { DomainError } from '../../common/errors/domain-error';
import { ErrorCode } from '../../common/errors/error-code';
import { scanErrorInWords, scannedWhen, withScheme } from './scan.pages';

describe('scan page wording', () => {
  it('assumes https:// for an address typed without a scheme, and keeps a typed scheme', () => {
    expect(withScheme('example.com')).toEqual({ url: 'https://example.com', assumed: true });
    expect(withScheme(' example.com/a?b=1 ')).toEqual({ url: 'https://example.com/a?b=1', assumed: true });
    expect(withScheme('//example.com/')).toEqual({ url: 'https://example.com/', assumed: true });
    expect(withScheme('localhost:8080/x')).toEqual({ url: 'https://localhost:8080/x', assumed: true });
    expect(withScheme('http://example.com')).toEqual({ url: 'http://example.com', assumed: false });
    expect(withScheme('HTTPS://example.com')).toEqual({ url: 'HTTPS://example.com', assumed: false });
    expect(withScheme('ftp://example.com')).toEqual({ url: 'ftp://example.com', assumed: false });
    expect(withScheme('javascript:alert(1)')).toEqual({ url: 'javascript:alert(1)', assumed: false });
    expect(withScheme('')).toEqual({ url: '', assumed: false });
  });

  it('says when a report was made, in words', () => {
    const at = '2026-11-25T18:40:12.000Z';
    expect(scannedWhen(at, new Date('2026-11-25T18:40:40Z'))).toBe(
      'less than a minute ago, on Wednesday 25 November 2026 at 18:40 UTC',
    );
    expect(scannedWhen(at, new Date('2026-11-25T18:52:40Z'))).toBe(
      '12 minutes ago, on Wednesday 25 November 2026 at 18:40 UTC',
    );
    expect(scannedWhen(at, new Date('2026-11-25T18:41:40Z'))).toBe(
      '1 minute ago, on Wednesday 25 November 2026 at 18:40 UTC',
    );
    expect(scannedWhen('2026-11-01T07:05:00Z', new Date('2026-11-01T11:00:00Z'))).toBe(
      '3 hours ago, on Sunday 1 November 2026 at 07:05 UTC',
    );
  });

  it('never shows a browser error code to people', () => {
    const o = { url: 'http://x/', crawl: false, limit: 6, windowS: 60 };
    for (const reason of ['ERR_UNSAFE_PORT', 'ERR_NAME_NOT_RESOLVED', 'ERR_CERT_DATE_INVALID', 'ERR_SOMETHING_NEW']) {
      const e = new DomainError(ErrorCode.TargetUnreachable, `The target could not be reached (${reason}).`, {
        reason,
      });
      expect(scanErrorInWords(e, o).message).not.toMatch(/ERR_/);
    }
    const port = new DomainError(ErrorCode.TargetUnreachable, 'x (ERR_UNSAFE_PORT).', { reason: 'ERR_UNSAFE_PORT' });
    expect(scanErrorInWords(port, o).message).toContain('browsers do not open web pages on this port');
    const slow = new DomainError(ErrorCode.TargetUnreachable, 'The page did not load within 30000 ms.', {
      reason: 'timeout',
    });
    expect(scanErrorInWords(slow, o).message).not.toMatch(/\d+ ms/);
  });

  it("says a refused address in the page's words, never the API's range names", () => {
    const o = { url: 'http://x/', crawl: false, limit: 6, windowS: 60 };
    const refused = (message: string, reason?: string) =>
      scanErrorInWords(
        new DomainError(ErrorCode.TargetNotAllowed, message, { field: 'url', ...(reason ? { reason } : {}) }),
        o,
      ).message;
    const loop = refused('Scanning 127.0.0.1 is not allowed: 127.0.0.1 is loopback.', '127.0.0.1 is loopback');
    expect(loop).toMatch(/^Beacon cannot scan 127\.0\.0\.1: this address belongs to this server itself/);
    const lan = refused('Scanning 10.1.2.3 is not allowed: 10.1.2.3 is private.', '10.1.2.3 is private');
    expect(lan).toContain("this server's own network");
    const v6 = refused('Scanning [::ffff:7f00:1] is not allowed: x', '[::ffff:7f00:1] is loopback (127.0.0.1)');
    expect(v6).toContain('this server itself');
    const meta = refused('Scanning 169.254.169.254 is not allowed: x', '169.254.169.254 is linkLocal');
    const name = refused(
      'Scanning inside.test is not allowed: inside.test does not resolve to a public address.',
      'inside.test does not resolve to a public address',
    );
    expect(name).toContain('inside.test: that name leads to an address that is not on the public internet');
    const ftp = refused('Only http and https URLs can be scanned, not ftp:.');
    expect(ftp).toContain('Addresses starting with ftp: cannot be scanned');
    const led = refused(
      'The page led to an address that may not be scanned (10.0.0.1 is private).',
      '10.0.0.1 is private',
    );
    for (const m of [loop, lan, v6, meta, name, ftp, led]) {
      expect(m).not.toMatch(/loopback|linkLocal|\bis private\b|not allowed|resolve to a public address/);
      expect(m).toContain('Beacon only scans public web addresses');
    }
  });
});
