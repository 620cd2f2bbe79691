import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { AppConfig } from '../common/config/env';
import { DomainError } from '../common/errors/domain-error';
import { ErrorCode } from '../common/errors/error-code';
import { MAIL_OFF_HINT, MailService } from '../common/notify/mail.service';
import { InstanceSecretsService } from '../common/secrets/instance-secrets.service';
import { plural } from '../common/text/plural';
import { normaliseEmail } from './accounts.service';
import { LoginThrottleStore, ThrottleEntry } from './login-throttle.store';
import { hashPassword, passwordProblem } from './password-hasher';
import { SignupsStore } from './signups.store';

/** E-mails one address receives per hour from sign-ups, whoever asks (no mail bombing through the form). */
const MAILS_PER_ADDRESS_PER_HOUR = 3;

const tokenHash = (token: string): string => createHash('sha256').update(token).digest('hex');

export type LinkState = 'valid' | 'expired' | 'invalid';

/** The account a verified sign-up made. */
export interface VerifiedSignup {
  userId: string;
  email: string;
  workspace: string;
}

/**
 * Sign-up for the PDF site (issue #23): an e-mail and a password; the account (an admin of a new
 * personal workspace of one, so sessions, CSRF and throttles serve as for every user) exists only
 * once the link mailed to the address is opened. The answer is the same whether or not the address
 * has an account: a known address gets a mail saying so instead of a link (no enumeration), after
 * the same argon2 work. Counted per IP (SIGNUP_IP_MAX_PER_HOUR) and per address on the sign-in
 * throttle store. Tokens: 256 random bits, stored as SHA-256, expiring after SIGNUP_LINK_TTL_H.
 * Its queries are in signups.store.ts.
 */
@Injectable()
export class SignupService implements OnModuleInit {
  private readonly logger = new Logger('Signup');
  private key = '';

  constructor(
    private readonly store: SignupsStore,
    private readonly config: AppConfig,
    private readonly mail: MailService,
    private readonly throttle: LoginThrottleStore,
    private readonly secrets: InstanceSecretsService,
  ) {}

  async onModuleInit(): Promise<void> {
    this.key = await this.secrets.get('signup_throttle_key');
  }

  get mailConfigured(): boolean {
    return this.mail.configured;
  }

  private entries(email: string, ip: string): ThrottleEntry[] {
    const subject = (kind: string, v: string) =>
      `${kind}:${createHmac('sha256', this.key).update(v).digest('hex').slice(0, 40)}`;
    const hourly = (maxFailures: number) => ({ maxFailures, windowS: 3600, lockoutS: 3600, maxLockoutS: 86400 });
    return [
      { subject: subject('signup-ip', ip), rule: hourly(this.config.SIGNUP_IP_MAX_PER_HOUR), clearOnSuccess: false },
      { subject: subject('signup-mail', email), rule: hourly(MAILS_PER_ADDRESS_PER_HOUR), clearOnSuccess: false },
    ];
  }

  /** Validates and queues the mail; the same outcome for known and unknown addresses. */
  async request(rawEmail: string, password: string, confirm: string, ip: string): Promise<{ email: string }> {
    if (!this.mail.configured)
      throw new DomainError(ErrorCode.ServiceUnavailable, `Sign-up is not available: ${MAIL_OFF_HINT}`);
    const email = normaliseEmail(rawEmail);
    const problem = passwordProblem(password);
    if (problem) throw DomainError.badRequest(problem, 'password');
    if (password !== confirm)
      throw DomainError.badRequest('The two passwords differ: type the same password twice.', 'confirm_password');
    const entries = this.entries(email, ip);
    const r = await this.throttle.reserve(entries);
    if (!r.ok) {
      const seconds = Math.max(1, Math.ceil((r.until.getTime() - Date.now()) / 1000));
      throw new DomainError(
        ErrorCode.RateLimited,
        `Too many sign-ups: try again in ${plural(Math.ceil(seconds / 60), 'minute')}.`,
        { retry_after: seconds },
        { 'Retry-After': String(seconds) },
      );
    }
    try {
      const hash = await hashPassword(password); // for known addresses too: the same time either way
      const known = await this.store.emailTaken(email);
      if (known) {
        this.mailLater(
          email,
          'Your Beacon account',
          `Someone (perhaps you) tried to sign up to Beacon with this address, which already has an account.\n\nSign in at ${this.config.publicBaseUrl()}/signin. If you forgot your password, ask an admin of your workspace for a one-time password.\n\nIf it was not you, ignore this e-mail: nothing changed.\n`,
        );
      } else {
        await this.store.purgeLongExpired();
        const token = randomBytes(32).toString('base64url');
        await this.store.save(email, hash, tokenHash(token), this.config.SIGNUP_LINK_TTL_H);
        const link = `${this.config.publicBaseUrl()}/signup/verify?token=${token}`;
        this.mailLater(
          email,
          'Confirm your e-mail address for Beacon',
          `Open this link to confirm your address and create your Beacon account:\n\n${link}\n\nIt works for ${plural(this.config.SIGNUP_LINK_TTL_H, 'hour')}. If you did not sign up, ignore this e-mail: no account is made without it.\n`,
        );
      }
      return { email };
    } finally {
      await this.throttle.settle(entries, false); // every sign-up counts
    }
  }

  /** Sent after the answer (the page does not wait for SMTP, so both cases answer alike); failures are logged. */
  private mailLater(to: string, subject: string, text: string): void {
    this.mail
      .send({ to, subject, text })
      .catch((e: Error) => this.logger.warn(`Sign-up e-mail could not be sent: ${e.message}`));
  }

  /** What a link is worth, for the confirmation page (nothing changes). */
  async linkState(token: string): Promise<LinkState> {
    if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return 'invalid';
    const expired = await this.store.expired(tokenHash(token));
    if (expired === null) return 'invalid';
    return expired ? 'expired' : 'valid';
  }

  /**
   * Opens the link: creates the personal workspace and its admin in one transaction and forgets the
   * sign-up. An expired or unknown link is a 400 naming what to do; an address that got an account
   * meanwhile is a 409.
   */
  async verify(token: string): Promise<VerifiedSignup> {
    const state = await this.linkState(token);
    if (state !== 'valid') throw linkError(state);
    return this.store.transaction(async (tx) => {
      const pending = await tx.lockByToken(tokenHash(token));
      if (!pending) throw linkError('invalid'); // used by a parallel request
      if (pending.expired) throw linkError('expired');
      const { email, password_hash } = pending;
      await tx.forget(email);
      if (await tx.emailTaken(email)) {
        throw new DomainError(ErrorCode.Conflict, 'This address already has an account: sign in.');
      }
      const slug = `p-${randomBytes(6).toString('hex')}`;
      const workspaceId = await tx.createWorkspace(slug, `Personal (${email})`.slice(0, 200));
      const userId = await tx.createAdmin(workspaceId, email, password_hash);
      return { userId, email, workspace: slug };
    });
  }
}

function linkError(state: 'expired' | 'invalid'): DomainError {
  return state === 'expired'
    ? DomainError.badRequest('This link has expired: sign up again to get a new one.', 'token')
    : DomainError.badRequest(
        'This link is not valid: it was already used, or it was copied incompletely. Sign in, or sign up again.',
        'token',
      );
}
