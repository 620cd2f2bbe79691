import { DomainError } from '../common/errors/domain-error';
import type { WebInvitation } from './entities/web-invitation.entity';
import { Role, ROLES, WebUser } from './entities/web-user.entity';

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

/** An invitation not claimed yet, as the members page lists it. */
export interface InvitationView {
  email: string;
  role: Role;
  created_at: string;
  expires_at: string;
}

/** The result of creating a user or issuing a new one-time password: the only time it is shown. */
export interface IssuedPassword extends UserView {
  one_time_password: string;
}

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,189}$/;

export function normaliseEmail(raw: string): string {
  const email = raw.trim().toLowerCase();
  if (!EMAIL.test(email) || email.length > 254)
    throw DomainError.badRequest(`"${raw}" is not an email address.`, 'email');
  return email;
}

export function parseRole(raw: unknown): Role {
  if (typeof raw === 'string' && (ROLES as readonly string[]).includes(raw)) return raw as Role;
  throw DomainError.badRequest(`Role must be one of: ${ROLES.join(', ')}.`, 'role');
}

/** A user as pages, the CLI and the guard see it, `workspace` being its workspace's slug. */
export function toUserView(u: WebUser, workspace: string): UserView {
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

/** An invitation as the members page lists it: it expires `ttlDays` after it was made (ONE_TIME_PASSWORD_TTL_DAYS). */
export function toInvitationView(
  r: Pick<WebInvitation, 'email' | 'role' | 'createdAt'>,
  ttlDays: number,
): InvitationView {
  return {
    email: r.email,
    role: parseRole(r.role),
    created_at: r.createdAt.toISOString(),
    expires_at: new Date(r.createdAt.getTime() + ttlDays * 86400_000).toISOString(),
  };
}
