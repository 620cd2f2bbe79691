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
});
