import { DomainError, errorBody } from './domain-error';
import { ErrorCode } from './error-code';

describe('errorBody', () => {
  it('starts with ok, error, message, then the details; a detail cannot replace those three', () => {
    const err = new DomainError(ErrorCode.BadRequest, 'Invalid count.', {
      field: 'count',
      ok: true,
      error: 'spoofed',
      message: 'spoofed',
    });
    const body = errorBody(err);
    expect(Object.keys(body)).toEqual(['ok', 'error', 'message', 'field']);
    expect(body).toEqual({ ok: false, error: 'bad_request', message: 'Invalid count.', field: 'count' });
  });
});
