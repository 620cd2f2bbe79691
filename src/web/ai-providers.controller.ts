import { Get, Injectable, Param, PipeTransform, Post, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import type { UserView } from '../accounts/accounts.service';
import { PLATFORM_NAMES } from '../common/ai/ai-provider-error';
import type { AiPlatform } from '../common/ai/ai.types';
import { AiProvidersService } from '../common/ai/ai-providers.service';
import { parsePlatform, WorkspaceAiKeysService } from '../common/ai/workspace-ai-keys.service';
import { DomainError } from '../common/errors/domain-error';
import { ErrorCode } from '../common/errors/error-code';
import { CsrfService } from './csrf.service';
import { aiProvidersPage, removeAiKeyPage } from './pages/ai-providers.pages';
import { sendPage } from '../common/html/page';
import { AdminOnly, field, WebRequest, WebUserParam } from './web-context';
import { WebController } from './web-controller.decorator';

/** The `:platform` of a route as an AI platform; another value is a page that does not exist (404). */
@Injectable()
class PlatformPipe implements PipeTransform<string, AiPlatform> {
  transform(raw: string): AiPlatform {
    try {
      return parsePlatform(raw);
    } catch {
      throw new DomainError(ErrorCode.NotFound, 'No such AI platform.');
    }
  }
}

/** The route's `:platform`, parsed by PlatformPipe. */
const PlatformParam = (): ParameterDecorator => Param('platform', PlatformPipe);

/** The notice of the page after a key is saved (`?saved=`) or removed (`?removed=`). */
function noticeOf(query: WebRequest['query']): string | undefined {
  const name = (v: unknown): string | undefined =>
    typeof v === 'string' && v in PLATFORM_NAMES ? PLATFORM_NAMES[v as keyof typeof PLATFORM_NAMES] : undefined;
  const saved = name(query.saved);
  const removed = name(query.removed);
  if (saved) return `The ${saved} key of this workspace is saved. It is used from the next call on.`;
  return removed ? `The ${removed} key of this workspace is removed.` : undefined;
}

/**
 * Settings > AI providers (issue #22): everyone in the workspace sees which platforms are
 * configured and by which setting; admins set, replace and remove the workspace's own keys.
 * Saving and removing redirect (post/redirect/get); a key never appears in a page, a URL or a log.
 */
@WebController('dashboard/settings/ai-providers')
export class AiProvidersSettingsController {
  constructor(
    private readonly providers: AiProvidersService,
    private readonly keys: WorkspaceAiKeysService,
    private readonly csrf: CsrfService,
  ) {}

  @Get()
  async show(@WebUserParam() user: UserView, @Req() req: WebRequest, @Res() res: Response): Promise<void> {
    const statuses = await this.providers.status(user.workspace_id);
    sendPage(res, 200, aiProvidersPage(user, this.csrf.token(req, res), statuses, { notice: noticeOf(req.query) }));
  }

  @Post(':platform/key')
  @AdminOnly()
  async save(
    @WebUserParam() user: UserView,
    @PlatformParam() platform: AiPlatform,
    @Req() req: WebRequest,
    @Res() res: Response,
  ): Promise<void> {
    try {
      await this.keys.set(user.workspace_id, platform, field(req, 'key'), user.email);
    } catch (e) {
      if (!(e instanceof DomainError) || e.code !== ErrorCode.BadRequest) throw e;
      const statuses = await this.providers.status(user.workspace_id);
      sendPage(
        res,
        400,
        aiProvidersPage(user, this.csrf.token(req, res), statuses, {
          error: { message: `${PLATFORM_NAMES[platform]}: ${e.message}`, field: `key-${platform}` },
        }),
      );
      return;
    }
    res.redirect(303, `/dashboard/settings/ai-providers?saved=${platform}`);
  }

  @Get(':platform/remove')
  @AdminOnly()
  async confirmRemove(
    @WebUserParam() user: UserView,
    @Param('platform', PlatformPipe) platform: AiPlatform,
    @Req() req: WebRequest,
    @Res() res: Response,
  ): Promise<void> {
    const status = (await this.providers.status(user.workspace_id)).find((s) => s.platform === platform)!;
    if (!status.workspaceKey)
      throw new DomainError(ErrorCode.NotFound, `This workspace has no ${status.name} key of its own.`);
    // What the workspace asks the platform with once its own key is gone: the instance's, if it can build one.
    const instanceKey = this.providers.instanceConfigured(platform);
    sendPage(res, 200, removeAiKeyPage(user, this.csrf.token(req, res), status, instanceKey));
  }

  @Post(':platform/remove')
  @AdminOnly()
  async remove(
    @WebUserParam() user: UserView,
    @PlatformParam() platform: AiPlatform,
    @Res() res: Response,
  ): Promise<void> {
    await this.keys.remove(user.workspace_id, platform);
    res.redirect(303, `/dashboard/settings/ai-providers?removed=${platform}`);
  }
}
