import type { INestApplicationContext } from '@nestjs/common';
import { CliArgs, CliCommand } from '../common/cli/cli-command';
import { table } from '../common/cli/platform.commands';
import { DomainError } from '../common/errors/domain-error';
import { AccountsService, IssuedPassword, parseRole, UserView } from './accounts.service';

const accounts = (app: INestApplicationContext): AccountsService => app.get(AccountsService);

function positional(args: CliArgs, index: number, name: string): string {
  const v = args.positionals[index];
  if (!v) throw DomainError.badRequest(`Missing argument <${name}>.`, name);
  return v;
}

const userCreate: CliCommand<IssuedPassword> = {
  name: 'user:create',
  usage: 'user:create <workspace> <email> [--role admin|member] [--json]',
  description: 'Create a website user; prints a one-time password to change at first sign-in.',
  valueOptions: ['role'],
  run: (app, args) =>
    accounts(app).createUser(
      positional(args, 0, 'workspace'),
      positional(args, 1, 'email'),
      args.options.role === undefined ? 'member' : parseRole(args.options.role),
    ),
  human: (u) =>
    [
      `Created ${u.role} ${u.email} in workspace ${u.workspace}. One-time password (shown once):`,
      '',
      `  ${u.one_time_password}`,
      '',
      'Sign in at /signin; the password must be changed at the first sign-in.',
    ].join('\n'),
};

const userList: CliCommand<{ users: UserView[] }> = {
  name: 'user:list',
  usage: 'user:list <workspace> [--json]',
  description: 'List the website users of a workspace.',
  run: async (app, args) => ({ users: await accounts(app).listUsers(positional(args, 0, 'workspace')) }),
  human: (r) =>
    table(
      r.users.map((u) => ({
        ...u,
        status: u.disabled ? 'disabled' : u.must_change_password ? 'must change password' : 'active',
      })),
      ['email', 'role', 'status', 'created_at', 'last_sign_in_at', 'id'],
    ),
};

const userDisable: CliCommand<UserView> = {
  name: 'user:disable',
  usage: 'user:disable <email> [--json]',
  description: 'Disable a website user; their sessions end at once.',
  run: (app, args) => accounts(app).disableByEmail(positional(args, 0, 'email')),
  human: (u) => `Disabled ${u.email} (workspace ${u.workspace}); their sessions have ended.`,
};

export const accountCommands: CliCommand[] = [userCreate, userList, userDisable] as CliCommand[];
