import { ConfigError, loadConfig, settingNames } from './env';

describe('AppConfig', () => {
  it('has documented defaults', () => {
    const c = loadConfig({});
    expect(c.PORT).toBe(3000);
    expect(c.DATA_DIR).toBe('./.data');
    expect(c.DATABASE_URL).toBeUndefined();
    expect(c.embedded).toBe(true);
    expect(c.VISIBILITY_RATE_LIMIT).toBe(60);
    expect(c.SCAN_RATE_LIMIT).toBe(6);
    expect(c.SCAN_ALLOW_LOOPBACK_TARGETS_UNSAFE).toBe(false);
    expect(c.trustProxy()).toBe(false);
    expect(c.publicBaseUrl()).toBe('http://localhost:3000');
  });

  it('parses numbers, booleans, lists and URLs from strings', () => {
    const c = loadConfig({
      PORT: '8080',
      SEED_DEMO: 'no',
      TRUST_PROXY: 'loopback, 10.0.0.0/8',
      PUBLIC_BASE_URL: 'https://beacon.example.com/',
      DATABASE_URL: 'postgres://u@db:5432/beacon',
    });
    expect(c.PORT).toBe(8080);
    expect(c.SEED_DEMO).toBe(false);
    expect(c.trustProxy()).toEqual(['loopback', '10.0.0.0/8']);
    expect(c.publicBaseUrl()).toBe('https://beacon.example.com');
    expect(c.embedded).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy()).toBe(2);
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'mysql://x'],
    ['REDIS_URL', 'http://redis'],
    ['SEED_DEMO', 'maybe'],
    ['LOG_LEVEL', 'loud'],
    ['VISIBILITY_RATE_LIMIT', '0'],
    ['JSON_BODY_LIMIT', 'lots'],
    ['SCAN_ALLOW_LOOPBACK_TARGETS_UNSAFE', 'sure'],
  ])('refuses %s=%s and names the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`^Invalid configuration:\\n  ${name}=`));
  });

  it('never prints secrets or URLs in the error', () => {
    expect(() => loadConfig({ DATABASE_URL: 'mysql://user:hunter2@db' })).toThrow(/DATABASE_URL=\(hidden\)/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://user:hunter2@db' })).not.toThrow(/hunter2/);
  });

  it('ignores unrelated environment variables', () => {
    expect(() => loadConfig({ PATH: '/usr/bin', HOME: '/root', SOMETHING: 'x' })).not.toThrow();
    expect(settingNames()).toContain('DATABASE_URL');
    expect(settingNames()).not.toContain('PATH');
  });

  it('PDF_DAILY_LIMIT_SIGNED_IN: unset or empty means 4 x PDF_DAILY_LIMIT (undefined here), a whole number of 1 or more otherwise', () => {
    expect(loadConfig({}).PDF_DAILY_LIMIT_SIGNED_IN).toBeUndefined();
    expect(loadConfig({ PDF_DAILY_LIMIT_SIGNED_IN: '' }).PDF_DAILY_LIMIT_SIGNED_IN).toBeUndefined();
    expect(loadConfig({ PDF_DAILY_LIMIT_SIGNED_IN: '120' }).PDF_DAILY_LIMIT_SIGNED_IN).toBe(120);
    for (const bad of ['0', '-5', 'lots', '2.5'])
      expect(() => loadConfig({ PDF_DAILY_LIMIT_SIGNED_IN: bad })).toThrow(/PDF_DAILY_LIMIT_SIGNED_IN=/);
  });
});
