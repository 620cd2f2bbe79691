/**
 * Over 300 lines: one route per form of the tracking pages (brand, competitors, scans, prompts one by one and in bulk),
 * each the same refuse-with-field or redirect-with-notice pattern around TrackingService; the markup is in
 * pages/tracking.pages.ts.
 */
import { Get, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import type { UserView } from '../accounts/accounts.service';
import { AiProvidersService } from '../common/ai';
import { plural } from '../common/text/plural';
import { bulkField, csvRows, pastedRows } from '../visibility/tracking/tracking-bulk';
import {
  aliasesField,
  domainsField,
  intField,
  moneyField,
  nameField,
  platformsField,
  promptFields,
  scheduleField,
  TrackingInputError,
} from '../visibility/tracking/tracking-input';
import { TrackingService } from '../visibility/tracking/tracking.service';
import { TRACKING_LIMITS } from '../visibility/tracking/tracking.types';
import type { StoredBrand } from '../visibility/entities/vis-project.entity';
import { DomainError } from '../common/errors/domain-error';
import { ErrorCode } from '../common/errors/error-code';
import { readBulkForm } from './bulk-form';
import { CsrfService } from './csrf.service';
import { trackablePlatforms } from './platform-status';
import {
  deletePromptPage,
  editPromptPage,
  promptsAt,
  promptsPage,
  removeCompetitorPage,
  trackingPage,
} from './pages/tracking.pages';
import { sendPage } from '../common/html/page';
import { AdminOnly, CSRF_FIELD, CsrfAfterBody, field, WebRequest, WebUserParam } from './web-context';
import { WebController } from './web-controller.decorator';

const PAGE = 100;
const NOTICES: Record<string, string> = {
  brand: 'The brand is saved. Scans from now on detect it with these names and domains.',
  competitor: 'The competitor is added.',
  scans: 'The scan settings are saved.',
  prompt: 'The prompt is saved.',
  deleted: 'The prompt is deleted.',
};

/** A count of the address (`?added=3`, `?offset=100`), or undefined. */
const count = (s: unknown): number | undefined =>
  typeof s === 'string' && /^\d{1,7}$/.test(s) ? Number(s) : undefined;
/** A page of the prompt list (`?offset=`, or the confirmation's field): 0 when absent or not a count. */
const offsetOf = (s: unknown): number => count(s) ?? 0;

/**
 * A refused form's message and the field it belongs to. A prompt's checks word its problem to follow
 * a bulk row's "CSV row 3: " ("the prompt text is empty."): on a one-prompt form, `lead` begins the sentence.
 */
const refused = (e: TrackingInputError, lead?: string): { message: string; field: string } => ({
  message: lead && /^[a-z]/.test(e.message) ? `${lead}: ${e.message}` : e.message,
  field: e.field,
});

/** The prompt forms' fields (a ticked "enabled" box sends a value; an unticked one sends nothing). */
const promptFromForm = (values: Record<'text' | 'tags' | 'intent' | 'country' | 'enabled', string>) =>
  promptFields({ ...values, enabled: values.enabled ? 'yes' : 'no' });

/**
 * What a workspace tracks (docs/visibility-collection.md): GET pages for everyone in the workspace,
 * POSTs for its admins. A refused form comes back with the message linked to its field (400) and
 * what was typed kept; a saved one redirects (303) to the page with a notice.
 */
@WebController('dashboard/tracking')
export class TrackingController {
  constructor(
    private readonly tracking: TrackingService,
    private readonly ai: AiProvidersService,
    private readonly csrf: CsrfService,
  ) {}

  private async settingsPage(
    user: UserView,
    req: WebRequest,
    res: Response,
    status: number,
    o: Parameters<typeof trackingPage>[4] = {},
  ): Promise<void> {
    const s = await this.tracking.settings(user.workspace_id);
    sendPage(
      res,
      status,
      trackingPage(user, this.csrf.token(req, res), s, await trackablePlatforms(this.ai, user.workspace_id), o),
    );
  }

  /** Runs a change; a TrackingInputError re-renders `again` with it (400). */
  private async change(
    res: Response,
    work: () => Promise<string>,
    again: (e: TrackingInputError) => Promise<void>,
  ): Promise<void> {
    try {
      res.redirect(303, await work());
    } catch (e) {
      if (!(e instanceof TrackingInputError)) throw e;
      await again(e);
    }
  }

  @Get()
  async show(
    @WebUserParam() user: UserView,
    @Req() req: WebRequest,
    @Res() res: Response,
    @Query('saved') saved?: string,
  ): Promise<void> {
    await this.settingsPage(user, req, res, 200, { notice: typeof saved === 'string' ? NOTICES[saved] : undefined });
  }

  @Post('brand')
  @AdminOnly()
  async brand(@WebUserParam() user: UserView, @Req() req: WebRequest, @Res() res: Response): Promise<void> {
    const values = {
      business: field(req, 'business'),
      name: field(req, 'name'),
      aliases: field(req, 'aliases'),
      domains: field(req, 'domains'),
    };
    await this.change(
      res,
      async () => {
        const business = nameField(values.business, 'business', 'business name');
        const brand = {
          name: nameField(values.name, 'brand-name', 'brand name'),
          aliases: aliasesField(values.aliases, 'brand-aliases'),
          domains: domainsField(values.domains, 'brand-domains'),
        };
        await this.tracking.update(user.workspace_id, { business, brand });
        return '/dashboard/tracking?saved=brand';
      },
      (e) => this.settingsPage(user, req, res, 400, { error: refused(e), values }),
    );
  }

  @Post('competitors')
  @AdminOnly()
  async addCompetitor(@WebUserParam() user: UserView, @Req() req: WebRequest, @Res() res: Response): Promise<void> {
    const values = {
      'competitor-name': field(req, 'name'),
      'competitor-aliases': field(req, 'aliases'),
      'competitor-domains': field(req, 'domains'),
    };
    await this.change(
      res,
      async () => {
        await this.tracking.addCompetitor(user.workspace_id, {
          name: nameField(values['competitor-name'], 'competitor-name', "competitor's name"),
          aliases: aliasesField(values['competitor-aliases'], 'competitor-aliases'),
          domains: domainsField(values['competitor-domains'], 'competitor-domains'),
        });
        return '/dashboard/tracking?saved=competitor';
      },
      (e) => this.settingsPage(user, req, res, 400, { error: refused(e), values }),
    );
  }

  /** The competitor at `index` of this workspace (404 otherwise), and that index. */
  private async competitorAt(user: UserView, index: string): Promise<{ at: number; c: StoredBrand }> {
    const at = /^\d{1,3}$/.test(index) ? Number(index) : -1;
    const c = (await this.tracking.settings(user.workspace_id)).competitors[at];
    if (!c) throw new DomainError(ErrorCode.NotFound, 'No such competitor in this workspace.');
    return { at, c };
  }

  /** Where the competitor called `name` is in this workspace's list now (404 once it is gone). */
  private async competitorNamed(user: UserView, name: string): Promise<number> {
    const at = (await this.tracking.settings(user.workspace_id)).competitors.findIndex((c) => c.name === name);
    if (at < 0) throw new DomainError(ErrorCode.NotFound, `${name} is no longer a tracked competitor.`);
    return at;
  }

  @Get('competitors/:index/delete')
  @AdminOnly()
  async confirmRemoveCompetitor(
    @WebUserParam() user: UserView,
    @Param('index') index: string,
    @Req() req: WebRequest,
    @Res() res: Response,
  ): Promise<void> {
    const { at, c } = await this.competitorAt(user, index);
    sendPage(res, 200, removeCompetitorPage(user, this.csrf.token(req, res), c, at));
  }

  @Post('competitors/:index/delete')
  @AdminOnly()
  async removeCompetitor(
    @WebUserParam() user: UserView,
    @Param('index') index: string,
    @Req() req: WebRequest,
    @Res() res: Response,
  ): Promise<void> {
    // The confirmation sends the name it showed: that competitor goes, wherever the list has moved it since.
    const confirmed = field(req, 'name');
    const at = confirmed ? await this.competitorNamed(user, confirmed) : (await this.competitorAt(user, index)).at;
    const name = await this.tracking.removeCompetitor(user.workspace_id, at);
    await this.settingsPage(user, req, res, 200, { notice: `${name} is no longer tracked.` });
  }

  @Post('scans')
  @AdminOnly()
  async scans(@WebUserParam() user: UserView, @Req() req: WebRequest, @Res() res: Response): Promise<void> {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const chosen = ([] as unknown[]).concat(body.platforms ?? []).filter((x): x is string => typeof x === 'string');
    const values = {
      samples: field(req, 'samples'),
      budget_calls: field(req, 'budget_calls'),
      budget_usd: field(req, 'budget_usd'),
    };
    await this.change(
      res,
      async () => {
        await this.tracking.update(user.workspace_id, {
          platforms: platformsField(chosen),
          samples: intField(values.samples, 'samples', 'number of samples', 1, TRACKING_LIMITS.samplesMax),
          schedule: scheduleField(field(req, 'schedule')),
          budget_calls: intField(
            values.budget_calls,
            'budget_calls',
            'most calls per scan',
            1,
            TRACKING_LIMITS.budgetCallsMax,
          ),
          budget_usd: moneyField(values.budget_usd, 'budget_usd', 'most estimated cost', TRACKING_LIMITS.budgetUsdMax),
        });
        return '/dashboard/tracking?saved=scans#scans-settings';
      },
      (e) => this.settingsPage(user, req, res, 400, { error: refused(e), values }),
    );
  }

  // ---- prompts ----------------------------------------------------------------------------------

  private async promptsList(
    user: UserView,
    req: WebRequest,
    res: Response,
    status: number,
    o: {
      offset?: number;
      notice?: string;
      error?: { message: string; field: string };
      values?: Record<string, string>;
    } = {},
  ): Promise<void> {
    const offset = o.offset ?? 0;
    const list = await this.tracking.prompts(user.workspace_id, offset, PAGE);
    sendPage(
      res,
      status,
      promptsPage(user, this.csrf.token(req, res), list, {
        offset,
        limit: PAGE,
        notice: o.notice,
        error: o.error,
        values: o.values,
        // A refused form (its bulk upload's CSRF token is in the address): the list's own address.
        address: req.method === 'POST' ? '/dashboard/tracking/prompts' : undefined,
      }),
    );
  }

  @Get('prompts')
  async prompts(
    @WebUserParam() user: UserView,
    @Req() req: WebRequest,
    @Res() res: Response,
    @Query('offset') offset?: string,
    @Query('saved') saved?: string,
    @Query('added') added?: string,
    @Query('skipped') skipped?: string,
  ): Promise<void> {
    const notice =
      count(added) !== undefined
        ? `${plural(count(added)!, 'prompt')} added${count(skipped) ? `; ${plural(count(skipped)!, 'prompt')} already tracked, skipped` : ''}.`
        : typeof saved === 'string'
          ? NOTICES[saved]
          : undefined;
    await this.promptsList(user, req, res, 200, { offset: offsetOf(offset), notice });
  }

  private promptValues(req: WebRequest): {
    text: string;
    tags: string;
    intent: string;
    country: string;
    enabled: string;
  } {
    return {
      text: field(req, 'text'),
      tags: field(req, 'tags'),
      intent: field(req, 'intent'),
      country: field(req, 'country'),
      enabled: field(req, 'enabled'),
    };
  }

  @Post('prompts')
  @AdminOnly()
  async addPrompt(@WebUserParam() user: UserView, @Req() req: WebRequest, @Res() res: Response): Promise<void> {
    const values = this.promptValues(req);
    await this.change(
      res,
      async () => {
        await this.tracking.addPrompt(user.workspace_id, promptFromForm(values));
        return '/dashboard/tracking/prompts?saved=prompt';
      },
      (e) => this.promptsList(user, req, res, 400, { error: refused(e, 'The prompt was not added'), values }),
    );
  }

  /** Pasted lines and/or a CSV file (multipart: the CSRF token travels in the query string). */
  @Post('prompts/bulk')
  @AdminOnly()
  @CsrfAfterBody()
  async bulk(@WebUserParam() user: UserView, @Req() req: WebRequest, @Res() res: Response): Promise<void> {
    const token = req.query[CSRF_FIELD];
    if (typeof token === 'string') req.headers['x-csrf-token'] = token;
    this.csrf.assert(req);
    await this.change(
      res,
      async () => {
        const form = await readBulkForm(req, TRACKING_LIMITS.bulkBytes);
        let rows;
        try {
          rows = [...pastedRows(form.lines), ...(form.file.trim() ? csvRows(form.file) : [])];
        } catch (e) {
          if (e instanceof TrackingInputError)
            throw new TrackingInputError(`${e.message} Nothing was added.`, bulkField(e.field));
          throw e;
        }
        if (!rows.length) throw new TrackingInputError('Paste at least one prompt or choose a CSV file.', 'lines');
        const r = await this.tracking.addPrompts(user.workspace_id, rows);
        return `/dashboard/tracking/prompts?added=${r.added}&skipped=${r.duplicates}`;
      },
      (e) => this.promptsList(user, req, res, 400, { error: refused(e) }),
    );
  }

  @Get('prompts/:id/edit')
  @AdminOnly()
  async edit(
    @WebUserParam() user: UserView,
    @Param('id') id: string,
    @Req() req: WebRequest,
    @Res() res: Response,
  ): Promise<void> {
    await this.promptForm(user, id, req, res);
  }

  @Post('prompts/:id')
  @AdminOnly()
  async save(
    @WebUserParam() user: UserView,
    @Param('id') id: string,
    @Req() req: WebRequest,
    @Res() res: Response,
  ): Promise<void> {
    await this.promptForm(user, id, req, res, this.promptValues(req));
  }

  /** A prompt's edit page (no `values`), or its form sent: saved, or refused with the page again (400). */
  private async promptForm(
    user: UserView,
    id: string,
    req: WebRequest,
    res: Response,
    values?: ReturnType<TrackingController['promptValues']>,
  ): Promise<void> {
    const p = await this.tracking.prompt(user.workspace_id, id);
    if (!values) return sendPage(res, 200, editPromptPage(user, this.csrf.token(req, res), p));
    await this.change(
      res,
      async () => {
        await this.tracking.updatePrompt(user.workspace_id, p.id, promptFromForm(values));
        return '/dashboard/tracking/prompts?saved=prompt';
      },
      async (e) =>
        sendPage(
          res,
          400,
          editPromptPage(user, this.csrf.token(req, res), p, { error: refused(e, 'The prompt was not saved'), values }),
        ),
    );
  }

  @Get('prompts/:id/delete')
  @AdminOnly()
  async confirmDelete(
    @WebUserParam() user: UserView,
    @Param('id') id: string,
    @Query('offset') offset: string | undefined,
    @Req() req: WebRequest,
    @Res() res: Response,
  ): Promise<void> {
    // `offset`: the page of the list the link was on; Cancel and the deletion go back there.
    const p = await this.tracking.prompt(user.workspace_id, id);
    sendPage(res, 200, deletePromptPage(user, this.csrf.token(req, res), p, offsetOf(offset)));
  }

  @Post('prompts/:id/delete')
  @AdminOnly()
  async remove(
    @WebUserParam() user: UserView,
    @Param('id') id: string,
    @Req() req: WebRequest,
    @Res() res: Response,
  ): Promise<void> {
    await this.tracking.deletePrompt(user.workspace_id, id);
    // Back to the page of the list the prompt was on (the one before when it was that page's last).
    const left = (await this.tracking.settings(user.workspace_id)).prompts_total;
    const offset = Math.min(offsetOf(field(req, 'offset')), Math.max(0, Math.ceil(left / PAGE) - 1) * PAGE);
    res.redirect(303, `${promptsAt(offset)}${offset ? '&' : '?'}saved=deleted`);
  }
}
