import { Injectable } from '@nestjs/common';
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { InstanceSecretsService } from './instance-secrets.service';

/** A sealed value that does not open: damaged, sealed for another context, or with another key. */
export class SecretBoxError extends Error {}

const VERSION = 'v1';

/**
 * AES-256-GCM with a key derived (HKDF-SHA256) from a secret and a purpose, so each use of the
 * same secret has its own key. `context` (e.g. `workspace-id/platform`) is authenticated but not
 * stored: a sealed value copied to another row does not open there. Format:
 * `v1.<12-byte IV>.<ciphertext + 16-byte tag>`, base64url.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(secret: string, purpose: string) {
    this.key = Buffer.from(hkdfSync('sha256', secret, 'beacon-secret-box', purpose, 32));
  }

  seal(plaintext: string, context: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return `${VERSION}.${iv.toString('base64url')}.${body.toString('base64url')}`;
  }

  open(sealed: string, context: string): string {
    const [version, ivText, bodyText] = sealed.split('.');
    if (version !== VERSION || !ivText || !bodyText) throw new SecretBoxError('not a sealed value');
    const iv = Buffer.from(ivText, 'base64url');
    const body = Buffer.from(bodyText, 'base64url');
    if (iv.length !== 12 || body.length < 16) throw new SecretBoxError('not a sealed value');
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, iv);
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(body.subarray(body.length - 16));
      return Buffer.concat([decipher.update(body.subarray(0, body.length - 16)), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretBoxError('the sealed value does not open with this key and context');
    }
  }
}

/**
 * SecretBoxes keyed from the instance secret (generated once, kept in `app_secrets`, the same on
 * every instance of a database). Note: that secret lives in the same database as what it seals;
 * sealing keeps values out of logs, exports and casual reads, not from someone holding the whole
 * database.
 */
@Injectable()
export class SecretBoxService {
  private readonly boxes = new Map<string, Promise<SecretBox>>();

  constructor(private readonly secrets: InstanceSecretsService) {}

  box(purpose: string): Promise<SecretBox> {
    let b = this.boxes.get(purpose);
    if (!b) {
      b = this.secrets.get('secret_box_key').then((secret) => new SecretBox(secret, purpose));
      b.catch(() => this.boxes.delete(purpose));
      this.boxes.set(purpose, b);
    }
    return b;
  }
}
