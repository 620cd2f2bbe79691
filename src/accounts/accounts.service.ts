/**
 * Over 300 lines: sign-in, password change and the admin operations all act on the same WebUser rows under the same
 * password and lockout rules, so one service keeps those rules in one place (SQL is in the stores, sessions in
 * SessionsService).
 */
import { Injectable, OnModuleInit } from '@nestjs/common';
import { createHash, createHmac } from 'node:crypto';
import { Counter } from 'prom-client';
import { ApiKeysService } from '../common/api-keys/api-keys.service';
import { AppConfig } from '../common/config/env';
import { DomainError } from '../common/errors/domain-error';
import { ErrorCode } from '../common/errors/error-code';
import { MetricsService } from '../common/metrics/metrics.service';
import { InstanceSecretsService } from '../common/secrets/instance-secrets.service';
import { WebInvitation } from './entities/web-invitation.entity';
import { WebUser, Role } from './entities/web-user.entity';
import { LoginThrottleStore, ThrottleEntry, ThrottleRule } from './login-throttle.store';
import { hashPassword, needsRehash, oneTimePassword, passwordProblem, verifyPassword } from './password-hasher';
import { SessionsService } from './sessions.service';
import { UsersStore } from './users.store';
import {
  InvitationView,
  IssuedPassword,
  normaliseEmail,
  parseRole,
  toInvitationView,
  toUserView,
  UserView,
} from './user-view';
import { plural } from '../common/text/plural';

export { normaliseEmail, parseRole, type InvitationView, type IssuedPassword, type UserView } from './user-view';

/** The demo workspace's admin, created with the demo data on a fresh embedded database (main.ts). */
export const DEMO_USER_EMAIL = 'demo@example.com';

/** The one answer to every failed sign-in, whatever failed (unknown email, wrong password, disabled). */
export const SIGN_IN_FAILED = 'Wrong email or password.';

/** How long a device where an account signed in stays known to it (exempt from the account-wide sign-in ceiling). */
const KNOWN_DEVICE_S = 90 * 86400;

/** One-time passwords of invitations are 119 random bits: a plain SHA-256 keeps them safe and findable. */
const otpHash = (password: string): string => createHash('sha256').update(password).digest('hex');

/** The 404 message for a member id that is not one of the workspace's. */
export const NO_SUCH_MEMBER = 'No such member in this workspace.';

/**
 * Website accounts: users of one workspace with a role, sign-in with a per-account and per-IP
 * lockout, password changes, and the admin operations (create with a one-time password, list,
 * change role, disable). Sessions are in {@link SessionsService}.
 */
@Injectable()
export class AccountsService implements OnModuleInit {
  /** A real argon2id hash verified for unknown emails, so they take as long as known ones. */
  private decoyHash = '';
  private throttleKey = '';
  /** Password attempts (sign-in, password change) by outcome: right, wrong, or refused by the limits unverified. */
  private readonly checks: Counter<'outcome'>;

  constructor(
    private readonly users: UsersStore,
    private readonly apiKeys: ApiKeysService,
    private readonly sessions: SessionsService,
    private readonly throttle: LoginThrottleStore,
    private readonly secrets: InstanceSecretsService,
    private readonly config: AppConfig,
    metrics: MetricsService,
  ) {
    this.checks = new Counter({
      name: 'web_password_checks_total',
      help: 'Website password attempts (sign-in, password change): right, wrong (both verified with argon2) or refused by the sign-in limits without verifying',
      labelNames: ['outcome'] as const,
      registers: [metrics.registry],
    });
  }

  async onModuleInit(): Promise<void> {
    this.decoyHash = await hashPassword(oneTimePassword());
    this.throttleKey = await this.secrets.get('login_throttle_key');
  }

  // ---- admin operations -------------------------------------------------------------------------

  async createUser(workspaceSlug: string, rawEmail: string, role: Role = 'member'): Promise<IssuedPassword> {
    const email = normaliseEmail(rawEmail);
    const ws = await this.apiKeys.findWorkspace(workspaceSlug);
    const password = oneTimePassword();
    const user = await this.users.insert({
      workspaceId: ws.id,
      email,
      role,
      passwordHash: await hashPassword(password),
      mustChangePassword: true,
      oneTimePasswordAt: new Date(),
    });
    if (!user) throw new DomainError(ErrorCode.Conflict, `A user with the email ${email} already exists.`);
    return { ...toUserView(user, ws.slug), one_time_password: password };
  }

  /**
   * An admin invites an address to their workspace: the answer (a one-time password) is the same
   * whether or not the address has an account in another workspace, and nothing is created or
   * changed for it: the invitation waits until the invited person signs in with the one-time password
   * (see signIn). Inviting again replaces the password (for a member who has not replaced theirs
   * too). Only a member of this very workspace (whom the admin sees in the list anyway) is a 409; a
   * disabled one is enabled again from the list instead (enableInWorkspace).
   */
  async invite(actor: UserView, rawEmail: string, role: Role): Promise<InvitationView & { one_time_password: string }> {
    const email = normaliseEmail(rawEmail);
    const password = oneTimePassword();
    const member = await this.users.findMember(actor.workspace_id, email);
    if (member) {
      // A member who never replaced their one-time password (e.g. it expired) gets a new one.
      if (member.disabledAt)
        throw new DomainError(
          ErrorCode.Conflict,
          `${email} is a disabled member of this workspace: use Enable again in the list of people.`,
          { field: 'email' },
        );
      if (!member.mustChangePassword)
        throw new DomainError(ErrorCode.Conflict, `${email} is already a member of this workspace.`, {
          field: 'email',
        });
      const now = new Date();
      await this.users.update(member.id, { passwordHash: await hashPassword(password), oneTimePasswordAt: now });
      return { ...this.invitationView({ email, role: member.role, createdAt: now }), one_time_password: password };
    }
    const row = await this.users.upsertInvitation(actor.workspace_id, email, role, otpHash(password));
    return { ...this.invitationView(row), one_time_password: password };
  }

  async listInvitations(workspaceId: string): Promise<InvitationView[]> {
    const rows = await this.users.listInvitations(workspaceId);
    return rows.map((r) => this.invitationView(r));
  }

  private invitationView(r: Pick<WebInvitation, 'email' | 'role' | 'createdAt'>): InvitationView {
    return toInvitationView(r, this.config.ONE_TIME_PASSWORD_TTL_DAYS);
  }

  async listUsers(workspaceSlug: string): Promise<UserView[]> {
    const ws = await this.apiKeys.findWorkspace(workspaceSlug);
    const rows = await this.users.listInWorkspace(ws.id);
    return rows.map((u) => toUserView(u, ws.slug));
  }

  /** Disables by email (CLI): the user's sessions end at once. */
  async disableByEmail(rawEmail: string): Promise<UserView> {
    const user = await this.users.findByEmail(normaliseEmail(rawEmail));
    if (!user) throw new DomainError(ErrorCode.NotFound, `No user has the email ${rawEmail.trim().toLowerCase()}.`);
    return this.disable(user);
  }

  /** A user of this workspace, or 404 ({@link NO_SUCH_MEMBER}; a user of another workspace does not exist from here). */
  async userInWorkspace(workspaceId: string, userId: string): Promise<WebUser> {
    const valid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(userId);
    const user = valid ? await this.users.findInWorkspace(workspaceId, userId) : null;
    if (!user) throw new DomainError(ErrorCode.NotFound, NO_SUCH_MEMBER);
    return user;
  }

  async disableInWorkspace(actor: UserView, userId: string): Promise<UserView> {
    const user = await this.userInWorkspace(actor.workspace_id, userId);
    if (user.id === actor.id) throw DomainError.badRequest('You cannot disable your own account.', 'user');
    return this.disable(user);
  }

  /** A member of the actor's workspace as the members page shows them, or 404 ({@link NO_SUCH_MEMBER}). */
  async memberView(actor: UserView, userId: string): Promise<UserView> {
    const user = await this.userInWorkspace(actor.workspace_id, userId);
    return toUserView(user, user.workspace!.slug);
  }

  /**
   * Enables a disabled member again: they sign in with their own password (or a one-time password
   * still valid); the sessions ended when they were disabled stay ended. Enabling an active member
   * changes nothing.
   */
  async enableInWorkspace(actor: UserView, userId: string): Promise<UserView> {
    const user = await this.userInWorkspace(actor.workspace_id, userId);
    if (user.disabledAt) {
      await this.users.enable(user.id);
      user.disabledAt = null;
    }
    return toUserView(user, user.workspace!.slug);
  }

  async setRole(actor: UserView, userId: string, role: Role): Promise<UserView> {
    const user = await this.userInWorkspace(actor.workspace_id, userId);
    if (user.id === actor.id) throw DomainError.badRequest('You cannot change your own role.', 'role');
    user.role = role;
    await this.users.update(user.id, { role });
    return toUserView(user, user.workspace!.slug);
  }

  async listInWorkspace(workspaceId: string): Promise<UserView[]> {
    const rows = await this.users.listInWorkspace(workspaceId, true);
    return rows.map((u) => toUserView(u, u.workspace!.slug));
  }

  private async disable(user: WebUser): Promise<UserView> {
    if (!user.disabledAt) {
      user.disabledAt = new Date();
      await this.users.disable(user.id, user.disabledAt);
    }
    await this.sessions.endAllFor(user.id);
    return toUserView(user, user.workspace!.slug);
  }

  // ---- sign-in ----------------------------------------------------------------------------------

  private subject(kind: 'pair' | 'acct' | 'ip' | 'dev', value: string): string {
    return `${kind}:${createHmac('sha256', this.throttleKey).update(value).digest('hex').slice(0, 40)}`;
  }

  /**
   * The subjects a password attempt for `email` from this client is counted on: the account from
   * this IP (LOGIN_MAX_FAILURES), the IP (LOGIN_IP_MAX_FAILURES) and, unless the device is known to
   * the account, the account from everywhere (LOGIN_ACCOUNT_MAX_FAILURES).
   */
  private throttleEntries(email: string, ip: string, knownDevice: boolean): ThrottleEntry[] {
    const c = this.config;
    const rule = (maxFailures: number): ThrottleRule => ({
      maxFailures,
      windowS: c.LOGIN_LOCKOUT_S,
      lockoutS: c.LOGIN_LOCKOUT_S,
      maxLockoutS: c.LOGIN_LOCKOUT_MAX_S,
    });
    return [
      { subject: this.subject('pair', `${email}\n${ip}`), rule: rule(c.LOGIN_MAX_FAILURES), clearOnSuccess: true },
      { subject: this.subject('ip', ip), rule: rule(c.LOGIN_IP_MAX_FAILURES), clearOnSuccess: false },
      ...(knownDevice
        ? []
        : [{ subject: this.subject('acct', email), rule: rule(c.LOGIN_ACCOUNT_MAX_FAILURES), clearOnSuccess: false }]),
    ];
  }

  private locked(until: Date, signedOut = false): DomainError {
    const seconds = Math.max(1, Math.ceil((until.getTime() - Date.now()) / 1000));
    const minutes = Math.ceil(seconds / 60);
    const wait = minutes > 90 ? plural(Math.ceil(minutes / 60), 'hour') : plural(minutes, 'minute');
    const at = `${until.toISOString().slice(11, 16)} UTC${minutes > 90 ? ` on ${until.toISOString().slice(0, 10)}` : ''}`;
    return new DomainError(
      ErrorCode.RateLimited,
      signedOut
        ? `Too many wrong passwords: you are signed out. Sign in again in ${wait}, after ${at}.`
        : `Too many failed sign-ins. Try again in ${wait}, after ${at}.`,
      { retry_after: seconds, retry_at: until.toISOString(), ...(signedOut ? { signed_out: true } : {}) },
      { 'Retry-After': String(seconds) },
    );
  }

  /**
   * Verifies one password attempt under the sign-in limits: the attempt takes its slot before the
   * (argon2) verification, so parallel attempts verify at most the limit; a failure keeps the slot
   * and may lock, a success gives it back. Locked: 429 without verifying anything.
   */
  private async throttled(
    entries: ThrottleEntry[],
    verify: () => Promise<boolean>,
    signedOut = false,
  ): Promise<boolean> {
    const r = await this.throttle.reserve(entries);
    if (!r.ok) {
      this.checks.inc({ outcome: 'refused' });
      throw this.locked(r.until, signedOut);
    }
    let ok = false;
    try {
      ok = await verify();
      this.checks.inc({ outcome: ok ? 'right' : 'wrong' });
    } catch (e) {
      await this.throttle.settle(entries, false);
      throw e;
    }
    const until = await this.throttle.settle(entries, ok);
    if (!ok && until) throw this.locked(until, signedOut);
    return ok;
  }

  /**
   * Checks an email and password. Attempts are counted (before the verification) per account and
   * IP, per IP, and per account from devices it never signed in on; also for unknown emails, so a
   * lockout reveals nothing. Each lock of a subject lasts twice the one before; 429 says when to
   * retry. Unknown emails, wrong passwords and disabled accounts get the same message after the same
   * argon2 work. Sessions already signed in are never affected.
   */
  async signIn(rawEmail: string, password: string, client: { ip: string; device: string }): Promise<UserView> {
    const email = rawEmail.trim().toLowerCase().slice(0, 254);
    const device = this.subject('dev', `${email}\n${client.device}`);
    const entries = this.throttleEntries(email, client.ip, client.device !== '' && (await this.throttle.known(device)));
    let user = null as WebUser | null;
    let invitation = null as WebInvitation | null;
    const ok = await this.throttled(entries, async () => {
      user = email ? await this.users.findByEmail(email) : null;
      // No account yet: the one-time password of an invitation (the same argon2 work is done).
      invitation = email && !user ? await this.users.findInvitation(email, otpHash(password.slice(0, 1024))) : null;
      const right = await verifyPassword(user?.passwordHash ?? this.decoyHash, password.slice(0, 1024));
      return invitation !== null || (right && user !== null && !user.disabledAt);
    });
    const pending: WebInvitation | null = invitation;
    if (ok && !user && pending) {
      if (this.expired(pending.createdAt)) throw this.oneTimePasswordExpired();
      user = await this.claim(pending, password);
    }
    if (!ok || !user) throw new DomainError(ErrorCode.Unauthorized, SIGN_IN_FAILED, { field: 'email' });
    const signedIn: WebUser = user;
    // Only who knows the one-time password learns that it expired.
    if (signedIn.mustChangePassword && this.expired(signedIn.oneTimePasswordAt ?? signedIn.createdAt))
      throw this.oneTimePasswordExpired();
    if (client.device) await this.throttle.remember(device, KNOWN_DEVICE_S);
    signedIn.lastSignInAt = new Date();
    const patch: Partial<WebUser> = { lastSignInAt: signedIn.lastSignInAt };
    if (needsRehash(signedIn.passwordHash)) patch.passwordHash = await hashPassword(password);
    await this.users.update(signedIn.id, patch);
    return toUserView(signedIn, signedIn.workspace!.slug);
  }

  /** The first sign-in with an invitation's one-time password makes the account (null if another sign-in just did). */
  private async claim(inv: WebInvitation, password: string): Promise<WebUser | null> {
    const user = await this.users.insert({
      workspaceId: inv.workspaceId,
      email: inv.email,
      role: parseRole(inv.role),
      passwordHash: await hashPassword(password),
      mustChangePassword: true,
      oneTimePasswordAt: inv.createdAt,
    });
    if (!user) return null;
    await this.users.deleteInvitations(inv.email);
    user.workspace = inv.workspace;
    return user;
  }

  /** Whether a one-time password issued then has expired (ONE_TIME_PASSWORD_TTL_DAYS). */
  private expired(issued: Date): boolean {
    return Date.now() - issued.getTime() > this.config.ONE_TIME_PASSWORD_TTL_DAYS * 86400_000;
  }

  private oneTimePasswordExpired(): DomainError {
    return new DomainError(
      ErrorCode.Unauthorized,
      `This one-time password has expired: one-time passwords work for ${plural(this.config.ONE_TIME_PASSWORD_TTL_DAYS, 'day')}. Ask an admin of your workspace for a new one.`,
      { field: 'password', reason: 'one_time_password_expired' },
    );
  }

  /** The user of a session, or null when the account is gone or disabled. */
  async activeUser(userId: string): Promise<UserView | null> {
    const user = await this.users.findById(userId, true);
    return user && !user.disabledAt ? toUserView(user, user.workspace!.slug) : null;
  }

  /** Changes a password after checking the current one; every session of the user ends. */
  async changePassword(userId: string, current: string, next: string, confirm: string, ip: string): Promise<void> {
    const user = await this.users.findById(userId);
    if (!user || user.disabledAt) throw new DomainError(ErrorCode.Unauthorized, 'Sign in again.');
    // The same limits as the sign-in (a session is a known device: no account-wide ceiling); past
    // them the caller ends the session (429 with `signed_out`).
    const right = await this.throttled(
      this.throttleEntries(user.email, ip, true),
      () => verifyPassword(user.passwordHash, current.slice(0, 1024)),
      true,
    );
    if (!right) throw DomainError.badRequest('The current password is wrong.', 'current_password');
    const problem = passwordProblem(next);
    if (problem) throw DomainError.badRequest(`New password: ${problem}`, 'new_password');
    if (next !== confirm) throw DomainError.badRequest('The two new passwords differ.', 'confirm_password');
    if (next === current)
      throw DomainError.badRequest('Choose a password different from the current one.', 'new_password');
    await this.users.update(user.id, {
      passwordHash: await hashPassword(next),
      mustChangePassword: false,
      oneTimePasswordAt: null,
    });
    await this.sessions.endAllFor(user.id);
  }
}
