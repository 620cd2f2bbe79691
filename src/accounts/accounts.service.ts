import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { createHmac } from 'node:crypto';
import { IsNull, QueryFailedError, Repository } from 'typeorm';
import { ApiKeysService } from '../common/api-keys/api-keys.service';
import { AppConfig } from '../common/config/env';
import { DomainError } from '../common/errors/domain-error';
import { ErrorCode } from '../common/errors/error-code';
import { InstanceSecretsService } from '../common/secrets/instance-secrets.service';
import { WebUser, Role, ROLES } from './entities/web-user.entity';
import { LoginThrottleStore } from './login-throttle-store';
import { hashPassword, needsRehash, oneTimePassword, passwordProblem, verifyPassword } from './password-hasher';
import { SessionsService } from './sessions.service';
import { plural } from '../common/text/plural';

/** A user as pages, the CLI and the guard see it. */
export interface UserView {
  id: string;
  email: string;
  role: Role;
  workspace_id: string;
  workspace: string;
  must_change_password: boolean;
  disabled: boolean;
  created_at: string;
  last_sign_in_at: string | null;
}

/** The result of creating a user or issuing a new one-time password: the only time it is shown. */
export interface IssuedPassword extends UserView {
  one_time_password: string;
}

/** The demo workspace's admin, created with the demo data on a fresh embedded database (main.ts). */
export const DEMO_USER_EMAIL = 'demo@example.com';

/** The one answer to every failed sign-in, whatever failed (unknown email, wrong password, disabled). */
export const SIGN_IN_FAILED = 'Wrong email or password.';

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,189}$/;

const isUniqueViolation = (e: unknown): boolean =>
  e instanceof QueryFailedError && (e.driverError as { code?: string } | undefined)?.code === '23505';

export function normaliseEmail(raw: string): string {
  const email = raw.trim().toLowerCase();
  if (!EMAIL.test(email) || email.length > 254) throw DomainError.badRequest(`"${raw}" is not an email address.`, 'email');
  return email;
}

export function parseRole(raw: unknown): Role {
  if (typeof raw === 'string' && (ROLES as readonly string[]).includes(raw)) return raw as Role;
  throw DomainError.badRequest(`Role must be one of: ${ROLES.join(', ')}.`, 'role');
}

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

  constructor(
    @InjectRepository(WebUser) private readonly users: Repository<WebUser>,
    private readonly apiKeys: ApiKeysService,
    private readonly sessions: SessionsService,
    private readonly throttle: LoginThrottleStore,
    private readonly secrets: InstanceSecretsService,
    private readonly config: AppConfig,
  ) {}

  async onModuleInit(): Promise<void> {
    this.decoyHash = await hashPassword(oneTimePassword());
    this.throttleKey = await this.secrets.get('login_throttle_key');
  }

  // ---- admin operations -------------------------------------------------------------------------

  async createUser(workspaceSlug: string, rawEmail: string, role: Role = 'member'): Promise<IssuedPassword> {
    const email = normaliseEmail(rawEmail);
    const ws = await this.apiKeys.findWorkspace(workspaceSlug);
    const password = oneTimePassword();
    try {
      const user = await this.users.save(
        this.users.create({ workspaceId: ws.id, email, role, passwordHash: await hashPassword(password), mustChangePassword: true, disabledAt: null, lastSignInAt: null }),
      );
      return { ...this.view(user, ws.slug), one_time_password: password };
    } catch (e) {
      if (isUniqueViolation(e)) throw new DomainError(ErrorCode.Conflict, `A user with the email ${email} already exists.`);
      throw e;
    }
  }

  async listUsers(workspaceSlug: string): Promise<UserView[]> {
    const ws = await this.apiKeys.findWorkspace(workspaceSlug);
    const rows = await this.users.find({ where: { workspaceId: ws.id }, order: { email: 'ASC' } });
    return rows.map((u) => this.view(u, ws.slug));
  }

  /** Disables by email (CLI): the user's sessions end at once. */
  async disableByEmail(rawEmail: string): Promise<UserView> {
    const user = await this.users.findOne({ where: { email: normaliseEmail(rawEmail) }, relations: { workspace: true } });
    if (!user) throw new DomainError(ErrorCode.NotFound, `No user has the email ${rawEmail.trim().toLowerCase()}.`);
    return this.disable(user);
  }

  /** A user of this workspace, or 404 (a user of another workspace does not exist from here). */
  async userInWorkspace(workspaceId: string, userId: string): Promise<WebUser> {
    const valid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(userId);
    const user = valid ? await this.users.findOne({ where: { id: userId, workspaceId }, relations: { workspace: true } }) : null;
    if (!user) throw new DomainError(ErrorCode.NotFound, 'No such member in this workspace.');
    return user;
  }

  async disableInWorkspace(actor: UserView, userId: string): Promise<UserView> {
    const user = await this.userInWorkspace(actor.workspace_id, userId);
    if (user.id === actor.id) throw DomainError.badRequest('You cannot disable your own account.', 'user');
    return this.disable(user);
  }

  async setRole(actor: UserView, userId: string, role: Role): Promise<UserView> {
    const user = await this.userInWorkspace(actor.workspace_id, userId);
    if (user.id === actor.id) throw DomainError.badRequest('You cannot change your own role.', 'role');
    user.role = role;
    await this.users.update({ id: user.id }, { role });
    return this.view(user, user.workspace!.slug);
  }

  async listInWorkspace(workspaceId: string): Promise<UserView[]> {
    const rows = await this.users.find({ where: { workspaceId }, relations: { workspace: true }, order: { email: 'ASC' } });
    return rows.map((u) => this.view(u, u.workspace!.slug));
  }

  private async disable(user: WebUser): Promise<UserView> {
    if (!user.disabledAt) {
      user.disabledAt = new Date();
      await this.users.update({ id: user.id, disabledAt: IsNull() }, { disabledAt: user.disabledAt });
    }
    await this.sessions.endAllFor(user.id);
    return this.view(user, user.workspace!.slug);
  }

  // ---- sign-in ----------------------------------------------------------------------------------

  private subject(kind: 'acct' | 'ip', value: string): string {
    return `${kind}:${createHmac('sha256', this.throttleKey).update(value).digest('hex').slice(0, 40)}`;
  }

  private locked(until: Date): DomainError {
    const seconds = Math.max(1, Math.ceil((until.getTime() - Date.now()) / 1000));
    return new DomainError(
      ErrorCode.RateLimited,
      `Too many failed sign-ins. Try again in ${plural(Math.ceil(seconds / 60), 'minute')}, after ${until.toISOString().slice(11, 16)} UTC.`,
      { retry_after: seconds, retry_at: until.toISOString() },
      { 'Retry-After': String(seconds) },
    );
  }

  /**
   * Checks an email and password. Failures are counted per account (also for unknown emails, so a
   * lockout reveals nothing) and per IP; at the limit the subject is locked for LOGIN_LOCKOUT_S and
   * 429 says when to retry. Unknown emails, wrong passwords and disabled accounts get the same
   * message after the same argon2 work.
   */
  async signIn(rawEmail: string, password: string, ip: string): Promise<UserView> {
    const email = rawEmail.trim().toLowerCase().slice(0, 254);
    const acct = this.subject('acct', email);
    const byIp = this.subject('ip', ip);
    const lock = await this.throttle.lockedUntil([acct, byIp]);
    if (lock) throw this.locked(lock);
    const user = email ? await this.users.findOne({ where: { email }, relations: { workspace: true } }) : null;
    const ok = await verifyPassword(user?.passwordHash ?? this.decoyHash, password.slice(0, 1024));
    if (!user || !ok || user.disabledAt) {
      const window = { windowS: this.config.LOGIN_LOCKOUT_S, lockoutS: this.config.LOGIN_LOCKOUT_S };
      const locks = await Promise.all([
        this.throttle.recordFailure(acct, { maxFailures: this.config.LOGIN_MAX_FAILURES, ...window }),
        this.throttle.recordFailure(byIp, { maxFailures: this.config.LOGIN_IP_MAX_FAILURES, ...window }),
      ]);
      const until = locks.filter((d): d is Date => d !== null).sort((a, b) => b.getTime() - a.getTime())[0];
      if (until) throw this.locked(until);
      throw new DomainError(ErrorCode.Unauthorized, SIGN_IN_FAILED, { field: 'email' });
    }
    await this.throttle.clear(acct);
    user.lastSignInAt = new Date();
    const patch: Partial<WebUser> = { lastSignInAt: user.lastSignInAt };
    if (needsRehash(user.passwordHash)) patch.passwordHash = await hashPassword(password);
    await this.users.update({ id: user.id }, patch);
    return this.view(user, user.workspace!.slug);
  }

  /** The user of a session, or null when the account is gone or disabled. */
  async activeUser(userId: string): Promise<UserView | null> {
    const user = await this.users.findOne({ where: { id: userId }, relations: { workspace: true } });
    return user && !user.disabledAt ? this.view(user, user.workspace!.slug) : null;
  }

  /** Changes a password after checking the current one; every session of the user ends. */
  async changePassword(userId: string, current: string, next: string, confirm: string): Promise<void> {
    const user = await this.users.findOne({ where: { id: userId } });
    if (!user || user.disabledAt) throw new DomainError(ErrorCode.Unauthorized, 'Sign in again.');
    if (!(await verifyPassword(user.passwordHash, current.slice(0, 1024)))) {
      throw DomainError.badRequest('The current password is wrong.', 'current_password');
    }
    const problem = passwordProblem(next);
    if (problem) throw DomainError.badRequest(`New password: ${problem}`, 'new_password');
    if (next !== confirm) throw DomainError.badRequest('The two new passwords differ.', 'confirm_password');
    if (next === current) throw DomainError.badRequest('Choose a password different from the current one.', 'new_password');
    await this.users.update({ id: user.id }, { passwordHash: await hashPassword(next), mustChangePassword: false });
    await this.sessions.endAllFor(user.id);
  }

  private view(u: WebUser, workspace: string): UserView {
    return {
      id: u.id,
      email: u.email,
      role: u.role,
      workspace_id: u.workspaceId,
      workspace,
      must_change_password: u.mustChangePassword,
      disabled: u.disabledAt !== null,
      created_at: u.createdAt.toISOString(),
      last_sign_in_at: u.lastSignInAt?.toISOString() ?? null,
    };
  }
}
