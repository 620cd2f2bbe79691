import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, QueryFailedError, Repository } from 'typeorm';
import { WebInvitation } from './entities/web-invitation.entity';
import { Role, WebUser } from './entities/web-user.entity';

/** The fields of a new account (the database fills in the id and created_at). */
export type NewUser = Pick<
  WebUser,
  'workspaceId' | 'email' | 'role' | 'passwordHash' | 'mustChangePassword' | 'oneTimePasswordAt'
>;

/** The columns of an account that change after its creation. */
export type UserPatch = Partial<
  Pick<WebUser, 'role' | 'passwordHash' | 'mustChangePassword' | 'oneTimePasswordAt' | 'lastSignInAt'>
>;

const isUniqueViolation = (e: unknown): boolean =>
  e instanceof QueryFailedError && (e.driverError as { code?: string } | undefined)?.code === '23505';

/**
 * Every query of the website's accounts (web_users) and of the invitations waiting to become one
 * (web_invitations). Lookups that a view needs load the user's workspace with it.
 */
@Injectable()
export class UsersStore {
  constructor(
    @InjectRepository(WebUser) private readonly users: Repository<WebUser>,
    @InjectRepository(WebInvitation) private readonly invitations: Repository<WebInvitation>,
  ) {}

  /** Creates an account; null when one with that email exists already (emails are unique across the service). */
  async insert(fields: NewUser): Promise<WebUser | null> {
    try {
      return await this.users.save(this.users.create({ ...fields, disabledAt: null, lastSignInAt: null }));
    } catch (e) {
      if (isUniqueViolation(e)) return null;
      throw e;
    }
  }

  async findById(id: string, withWorkspace = false): Promise<WebUser | null> {
    return this.users.findOne({ where: { id }, ...(withWorkspace ? { relations: { workspace: true } } : {}) });
  }

  /** With its workspace. */
  async findByEmail(email: string): Promise<WebUser | null> {
    return this.users.findOne({ where: { email }, relations: { workspace: true } });
  }

  /** A member of this workspace by email (without its workspace). */
  async findMember(workspaceId: string, email: string): Promise<WebUser | null> {
    return this.users.findOne({ where: { email, workspaceId } });
  }

  /** A member of this workspace by id, with its workspace. */
  async findInWorkspace(workspaceId: string, id: string): Promise<WebUser | null> {
    return this.users.findOne({ where: { id, workspaceId }, relations: { workspace: true } });
  }

  /** The workspace's members by email. */
  async listInWorkspace(workspaceId: string, withWorkspace = false): Promise<WebUser[]> {
    return this.users.find({
      where: { workspaceId },
      ...(withWorkspace ? { relations: { workspace: true } } : {}),
      order: { email: 'ASC' },
    });
  }

  async update(id: string, patch: UserPatch): Promise<void> {
    await this.users.update({ id }, patch);
  }

  /** Sets disabled_at unless the account is disabled already (the first date stays). */
  async disable(id: string, at: Date): Promise<void> {
    await this.users.update({ id, disabledAt: IsNull() }, { disabledAt: at });
  }

  /** Clears disabled_at: the account can sign in again. */
  async enable(id: string): Promise<void> {
    await this.users.update({ id }, { disabledAt: null });
  }

  // ---- invitations ------------------------------------------------------------------------------

  /** Creates or replaces the invitation of `email` to the workspace, and returns it as stored. */
  async upsertInvitation(workspaceId: string, email: string, role: Role, otpHash: string): Promise<WebInvitation> {
    await this.invitations.upsert({ workspaceId, email, role, otpHash, createdAt: new Date() }, [
      'workspaceId',
      'email',
    ]);
    return this.invitations.findOneByOrFail({ workspaceId, email });
  }

  async listInvitations(workspaceId: string): Promise<WebInvitation[]> {
    return this.invitations.find({ where: { workspaceId }, order: { email: 'ASC' } });
  }

  /** The invitation of `email` whose one-time password has this hash, with its workspace. */
  async findInvitation(email: string, otpHash: string): Promise<WebInvitation | null> {
    return this.invitations.findOne({ where: { email, otpHash }, relations: { workspace: true } });
  }

  /** Removes every invitation of the address (it has an account now). */
  async deleteInvitations(email: string): Promise<void> {
    await this.invitations.delete({ email });
  }
}
