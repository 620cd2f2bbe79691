import { DomainError } from '../../common/errors/domain-error';
import { ErrorCode } from '../../common/errors/error-code';
import { cacheKeyOf } from '../report/reports.service';
import { scanKeyOf } from '../scan/scan-options';
import { decodeJobError, encodeJobError, jobDataOf, parseScanJob, SCAN_JOB_OPTIONS_VERSION } from './scan-job';

describe('decodeJobError (a failed job read back from the queue)', () => {
  it('keeps the code, message, details and a numeric Retry-After of a domain error', () => {
    const e = decodeJobError(
      encodeJobError(
        new DomainError(ErrorCode.ServiceUnavailable, 'Busy.', { retry_after: 30 }, { 'Retry-After': '30' }),
      ),
    );
    expect(e).toBeInstanceOf(DomainError);
    expect(e.code).toBe(ErrorCode.ServiceUnavailable);
    expect(e.message).toBe('Busy.');
    expect(e.details).toEqual({ retry_after: 30 });
    expect(e.headers).toEqual({ 'Retry-After': '30' });
  });

  it('drops every header but Retry-After, and a Retry-After that is not a number of seconds', () => {
    const reason = encodeJobError(
      new DomainError(
        ErrorCode.RateLimited,
        'Slow down.',
        {},
        {
          'Retry-After': '5',
          'Set-Cookie': 'beacon_session=stolen; Path=/',
          Location: 'https://evil.example/',
          'Access-Control-Allow-Origin': '*',
          'Content-Security-Policy': 'default-src *',
        },
      ),
    );
    expect(decodeJobError(reason).headers).toEqual({ 'Retry-After': '5' });
    const crafted = (headers: unknown) =>
      `beacon-scan-error:${JSON.stringify({ code: 'rate_limited', message: 'x', headers })}`;
    expect(decodeJobError(crafted({ 'retry-after': '7' })).headers).toEqual({ 'Retry-After': '7' });
    expect(decodeJobError(crafted({ 'Retry-After': '5\r\nSet-Cookie: a=b' })).headers).toEqual({});
    expect(decodeJobError(crafted({ 'Retry-After': 5 })).headers).toEqual({});
    expect(decodeJobError(crafted('Set-Cookie: a=b')).headers).toEqual({});
    expect(decodeJobError(crafted(null)).headers).toEqual({});
  });

  it('turns a reason that is not a domain error into scan_failed without headers', () => {
    const e = decodeJobError('boom');
    expect(e.code).toBe(ErrorCode.ScanFailed);
    expect(e.headers).toEqual({});
  });
});

describe('scan job payloads with a site scan options', () => {
  const url = new URL('https://example.com/');
  it('keeps version 1 without options and carries them in version 2', () => {
    expect(jobDataOf(url, false, 1)).toEqual({ v: 1, url: url.href, crawl: false, answerBy: 1 });
    const options = {
      viewport: 'phone' as const,
      keyboard: true,
      cookies: [{ name: 'sid', value: 'x', domain: 'example.com', path: '/', secure: true, httpOnly: true }],
    };
    const data = jobDataOf(url, false, 1, options);
    expect(data.v).toBe(SCAN_JOB_OPTIONS_VERSION);
    expect(parseScanJob(JSON.parse(JSON.stringify(data)))).toEqual({ url, crawl: false, answerBy: 1, options });
  });

  it('fails a job whose options are malformed, and ignores options on a version 1 payload', () => {
    const v2 = (options: unknown) => ({ v: 2, url: url.href, crawl: false, answerBy: 1, options });
    expect(() => parseScanJob(v2({ viewport: 'tv' }))).toThrow(/options.viewport is unknown/);
    expect(() => parseScanJob(v2({ cookies: [{ name: 1 }] }))).toThrow(/a cookie is malformed/);
    expect(parseScanJob({ v: 1, url: url.href, crawl: false, answerBy: 1, options: { viewport: 'phone' } })).toEqual({
      url,
      crawl: false,
      answerBy: 1,
    });
  });

  it('gives a scan with options its own cache key, and the public one without', () => {
    expect(scanKeyOf(url.href, false, undefined)).toBe(cacheKeyOf(url.href, false));
    expect(scanKeyOf(url.href, false, {})).toBe(cacheKeyOf(url.href, false));
    expect(scanKeyOf(url.href, false, { viewport: 'phone' })).not.toBe(cacheKeyOf(url.href, false));
    expect(scanKeyOf(url.href, false, { viewport: 'phone' })).not.toBe(scanKeyOf(url.href, false, { reflow: true }));
  });
});
