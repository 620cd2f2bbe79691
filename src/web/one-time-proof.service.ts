import { Injectable, OnModuleInit } from '@nestjs/common';
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { Response } from 'express';
import { hashSessionId } from '../accounts/sessions.service';
import { cookieName, cookieOptions } from '../common/http/transport-security';
import { InstanceSecretsService } from '../common/secrets/instance-secrets.service';
import { WebRequest } from './web-context';

/** The cookie carrying the proof, sent only to the password page. */
export const PROOF_COOKIE = 'beacon_otp_proof';
const PROOF_PATH = '/account/password';
/** How long after signing in with a one-time password the password page does not ask for it again. */
export const PROOF_TTL_MS = 10 * 60_000;

interface Proof {
  /** SHA-256 of the session id it was issued to. */
  s: string;
  /** The one-time password just verified at sign-in. */
  p: string;
  /** Expiry, ms since the epoch. */
  e: number;
}

/**
 * The forced password change right after a sign-in with a one-time password does not ask for that
 * password again: the sign-in just proved it. The proof is the one-time password itself, sealed
 * (AES-256-GCM, key from a deployment secret shared by every instance) in an HttpOnly,
 * SameSite=Strict cookie sent only to `/account/password`, bound to the new session's id and valid
 * PROOF_TTL_MS. The password change still verifies it server-side (AccountsService.changePassword);
 * once the password is changed it is worthless, and the cookie is cleared. After it expires, or in
 * another session, the page asks for the one-time password as before.
 */
@Injectable()
export class OneTimeProofService implements OnModuleInit {
  private key?: Buffer;

  constructor(private readonly secrets: InstanceSecretsService) {}

  async onModuleInit(): Promise<void> {
    this.key = createHash('sha256')
      .update(await this.secrets.get('web_otp_proof_secret'))
      .digest();
  }

  /** After a sign-in with a one-time password: the proof for this new session. */
  issue(req: WebRequest, res: Response, sessionId: string, oneTimePassword: string): void {
    const proof: Proof = { s: hashSessionId(sessionId), p: oneTimePassword, e: Date.now() + PROOF_TTL_MS };
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key!, iv);
    const sealed = Buffer.concat([cipher.update(JSON.stringify(proof), 'utf8'), cipher.final()]);
    const value = Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
    res.cookie(
      cookieName(req, PROOF_COOKIE, PROOF_PATH),
      value,
      cookieOptions(req, { sameSite: 'strict', path: PROOF_PATH, maxAge: PROOF_TTL_MS }),
    );
  }

  /** The one-time password proven at sign-in in this session, if the proof is still valid. */
  proven(req: WebRequest): string | null {
    const raw = req.cookies?.[cookieName(req, PROOF_COOKIE, PROOF_PATH)];
    if (!raw || !req.sessionId || !this.key) return null;
    try {
      const bytes = Buffer.from(raw, 'base64url');
      if (bytes.length < 29) return null;
      const decipher = createDecipheriv('aes-256-gcm', this.key, bytes.subarray(0, 12));
      decipher.setAuthTag(bytes.subarray(12, 28));
      const proof = JSON.parse(
        Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8'),
      ) as Proof;
      return proof.s === hashSessionId(req.sessionId) && proof.e > Date.now() && typeof proof.p === 'string'
        ? proof.p
        : null;
    } catch {
      return null; // forged, damaged or sealed with another key
    }
  }

  clear(req: WebRequest, res: Response): void {
    const name = cookieName(req, PROOF_COOKIE, PROOF_PATH);
    if (req.cookies?.[name]) res.clearCookie(name, cookieOptions(req, { sameSite: 'strict', path: PROOF_PATH }));
  }
}
