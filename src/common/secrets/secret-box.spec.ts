import { SecretBox, SecretBoxError } from './secret-box';

describe('SecretBox', () => {
  const box = new SecretBox('a'.repeat(64), 'ai-provider-keys');

  it('opens what it sealed, with a fresh IV each time', () => {
    const a = box.seal('sk-secret', 'ws/openai');
    const b = box.seal('sk-secret', 'ws/openai');
    expect(a).not.toBe(b);
    expect(a).not.toContain('sk-secret');
    expect(box.open(a, 'ws/openai')).toBe('sk-secret');
  });

  it('refuses another context, another purpose, another secret, and a tampered value', () => {
    const sealed = box.seal('sk-secret', 'ws/openai');
    expect(() => box.open(sealed, 'other-ws/openai')).toThrow(SecretBoxError);
    expect(() => new SecretBox('a'.repeat(64), 'other').open(sealed, 'ws/openai')).toThrow(SecretBoxError);
    expect(() => new SecretBox('b'.repeat(64), 'ai-provider-keys').open(sealed, 'ws/openai')).toThrow(SecretBoxError);
    const [v, iv, body] = sealed.split('.');
    const flipped = Buffer.from(body, 'base64url');
    flipped[0] ^= 1;
    expect(() => box.open(`${v}.${iv}.${flipped.toString('base64url')}`, 'ws/openai')).toThrow(SecretBoxError);
    expect(() => box.open('garbage', 'ws/openai')).toThrow(SecretBoxError);
  });
});
