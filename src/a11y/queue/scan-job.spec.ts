import { DomainError } from '../../common/errors/domain-error';
import { ErrorCode } from '../../common/errors/error-code';
import { decodeJobError, encodeJobError } from './scan-job';

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
