import { safeNext } from './auth.controller';

describe('safeNext', () => {
  it('keeps local paths and refuses other sites', () => {
    expect(safeNext('/dashboard/answers?x=1')).toBe('/dashboard/answers?x=1');
    for (const bad of [
      '//evil.example',
      '/\\evil.example',
      'https://evil.example',
      'javascript:alert(1)',
      '',
      undefined,
      42,
      '/a b',
    ]) {
      expect(safeNext(bad)).toBe('/dashboard');
    }
  });
});
