import { displayPrefix, generateApiKey, hashApiKey, isWellFormedApiKey, KEY_LENGTH } from './api-key-format';

describe('API key format', () => {
  it('generates distinct, well-formed keys with the bcn_ prefix', () => {
    const keys = new Set(Array.from({ length: 500 }, () => generateApiKey()));
    expect(keys.size).toBe(500);
    for (const key of keys) {
      expect(key).toMatch(/^bcn_[0-9A-Za-z]{38}$/);
      expect(key).toHaveLength(KEY_LENGTH);
      expect(isWellFormedApiKey(key)).toBe(true);
    }
  });

  it('rejects a key with one character changed (checksum)', () => {
    const key = generateApiKey();
    for (const pos of [4, 10, 20, KEY_LENGTH - 1]) {
      const c = key[pos] === 'a' ? 'b' : 'a';
      expect(isWellFormedApiKey(key.slice(0, pos) + c + key.slice(pos + 1))).toBe(false);
    }
  });

  it('rejects wrong prefixes, lengths and characters', () => {
    const key = generateApiKey();
    expect(isWellFormedApiKey('')).toBe(false);
    expect(isWellFormedApiKey(key.replace('bcn_', 'xyz_'))).toBe(false);
    expect(isWellFormedApiKey(key + 'a')).toBe(false);
    expect(isWellFormedApiKey(key.slice(0, -1))).toBe(false);
    expect(isWellFormedApiKey(key.slice(0, 10) + '-' + key.slice(11))).toBe(false);
  });

  it('hashes with SHA-256 hex and shows a short prefix', () => {
    expect(hashApiKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(displayPrefix('bcn_ABCDEFGHxyz')).toBe('bcn_ABCDEFGH');
  });
});
