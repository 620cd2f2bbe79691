import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiKeysService } from '../api-keys/api-keys.service';
import { AuthedRequest } from '../decorators/auth-context.decorator';
import { IS_PUBLIC } from '../decorators/public.decorator';
import { DomainError } from '../errors/domain-error';
import { ErrorCode } from '../errors/error-code';

const unauthorized = (message: string): DomainError => new DomainError(ErrorCode.Unauthorized, message);

/**
 * Deny by default: every route needs `Authorization: Bearer <API key>` unless marked @Public().
 * Missing, malformed, unknown and revoked keys all get 401 unauthorized.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly apiKeys: ApiKeysService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()])) return true;
    const req = context.switchToHttp().getRequest<AuthedRequest>();
    const header = req.headers.authorization;
    if (!header) throw unauthorized('Missing API key: send the header "Authorization: Bearer <API_KEY>".');
    const match = /^Bearer +(\S+)\s*$/i.exec(header);
    if (!match) throw unauthorized('Malformed Authorization header: expected "Bearer <API_KEY>".');
    const auth = await this.apiKeys.authenticate(match[1]);
    if (!auth) throw unauthorized('Invalid or revoked API key.');
    req.auth = auth;
    return true;
  }
}
