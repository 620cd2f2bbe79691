import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { AppConfig } from '../config/env';
import { DomainError } from '../errors/domain-error';
import { EgressGuard } from '../egress/egress-guard';
import { JobQueues } from '../jobs/job-queues';
import { SecretBox, SecretBoxService } from '../secrets/secret-box';
import { AlertsStore, DeliveryRow, DestinationKind, DestinationRow } from './alerts.store';
import { MAIL_OFF_HINT, MailService } from './mail.service';
import { parseWebhookUrl, postWebhook, refusalOf, WebhookAttempt } from './webhook-sender';

/** An alert as features raise it (see docs/alerts.md for the payload). */
export interface Alert {
  kind: string;
  title: string;
  text: string;
  data: object;
}

export interface DestinationView {
  id: string;
  kind: DestinationKind;
  target: string;
  created_at: string;
}

export type DeliveryView = Omit<DeliveryRow, 'payload' | 'workspace_id'>;

/** The job queue of alert deliveries (one job per delivery row, id = the row's id). */
export const ALERT_QUEUE = 'alert-delivery';
/** Deliveries run at once by each process. */
const DELIVERY_CONCURRENCY = 4;
/** Destinations per workspace. */
export const MAX_DESTINATIONS = 20;
/** SecretBoxService purpose of webhook signing secrets. */
export const WEBHOOK_SECRET_PURPOSE = 'alert-webhook-secrets';
const EMAIL = /^[^\s@<>()",;]+@[^\s@<>()",;]+\.[^\s@<>()",;]+$/;

/**
 * Alerts of a workspace: `send` records one delivery per destination and queues it on JobQueues
 * (retried with ALERT_RETRY_BACKOFF_MS doubling, ALERT_MAX_ATTEMPTS in all); it never throws into
 * the caller and never waits for a delivery. Webhooks are Standard Webhooks signed POSTs through the
 * egress guard (public addresses only; loopback with SCAN_ALLOW_LOOPBACK_TARGETS_UNSAFE for tests);
 * e-mails go through MailService. Every attempt updates the delivery log.
 */
@Injectable()
export class AlertsService implements OnModuleInit {
  private readonly logger = new Logger('Alerts');
  /** The address policy's guard (replaceable in tests). */
  guard: EgressGuard;

  constructor(
    private readonly config: AppConfig,
    private readonly store: AlertsStore,
    private readonly jobs: JobQueues,
    private readonly mail: MailService,
    private readonly boxes: SecretBoxService,
  ) {
    this.guard = new EgressGuard({ allowLoopback: config.SCAN_ALLOW_LOOPBACK_TARGETS_UNSAFE });
  }

  onModuleInit(): void {
    this.jobs.register<{ deliveryId: string }>(ALERT_QUEUE, (d, job) => this.deliver(d.deliveryId, job.attempt), {
      concurrency: DELIVERY_CONCURRENCY,
    });
  }

  get mailConfigured(): boolean {
    return this.mail.configured;
  }

  /** Queues the alert to every destination of the workspace. Never throws; failures are logged. */
  async send(workspaceId: string, alert: Alert): Promise<void> {
    try {
      await this.queue(workspaceId, alert);
    } catch (e) {
      this.logger.error(
        `Alert "${alert.kind}" of workspace ${workspaceId} could not be queued: ${(e as Error).message}`,
      );
    }
  }

  /** Queues and returns the deliveries (the test alert shows them). */
  private async queue(workspaceId: string, alert: Alert): Promise<DeliveryRow[]> {
    const dests = await this.store.destinations(workspaceId);
    if (dests.length === 0) return [];
    const timestamp = new Date().toISOString();
    const payload = {
      type: alert.kind,
      timestamp,
      data: { workspace_id: workspaceId, title: alert.title, text: alert.text, details: alert.data },
    };
    const rows = await this.store.addDeliveries(workspaceId, dests, {
      messageId: `msg_${randomBytes(16).toString('hex')}`,
      kind: alert.kind,
      title: alert.title,
      payload,
    });
    for (const row of rows) {
      try {
        await this.jobs.add(
          ALERT_QUEUE,
          { deliveryId: row.id },
          { jobId: row.id, attempts: this.config.ALERT_MAX_ATTEMPTS, backoffMs: this.config.ALERT_RETRY_BACKOFF_MS },
        );
      } catch (e) {
        // The log says so rather than showing it queued for ever.
        await this.store.recordAttempt(
          row.id,
          0,
          'failed',
          null,
          `Could not be queued (job queue unavailable): ${(e as Error).message}`,
        );
        throw e;
      }
    }
    return rows;
  }

  /** A test alert to every destination (Settings > Alerts). */
  async sendTest(workspaceId: string, by: string): Promise<number> {
    const rows = await this.queue(workspaceId, {
      kind: 'test',
      title: 'Test alert from Beacon',
      text: `${by} sent this test alert from Settings > Alerts. If you can read it, alerts reach this destination.`,
      data: { sent_by: by },
    });
    return rows.length;
  }

  // ---- destinations -------------------------------------------------------------------------------

  async destinations(workspaceId: string): Promise<DestinationView[]> {
    return (await this.store.destinations(workspaceId)).map(view);
  }

  /** Adds a webhook; returns it with its signing secret (`whsec_...`, shown once). Refused addresses: 400 naming `url`. */
  async addWebhook(workspaceId: string, raw: string): Promise<{ destination: DestinationView; secret: string }> {
    await this.roomFor(workspaceId);
    const url = parseWebhookUrl(raw);
    if (typeof url === 'string') throw DomainError.badRequest(url, 'url');
    const refusal = await refusalOf(this.guard, url);
    if (refusal) throw DomainError.badRequest(`This address cannot receive alerts: ${refusal}.`, 'url');
    const secret = `whsec_${randomBytes(24).toString('base64')}`;
    const row = await this.store.addDestination(
      workspaceId,
      'webhook',
      url.href,
      (await this.secretBox()).seal(secret, workspaceId),
    );
    return { destination: view(row), secret };
  }

  async addEmail(workspaceId: string, raw: string): Promise<DestinationView> {
    await this.roomFor(workspaceId);
    if (!this.mail.configured) throw DomainError.badRequest(MAIL_OFF_HINT, 'email');
    const email = raw.trim();
    if (email.length > 254 || !EMAIL.test(email))
      throw DomainError.badRequest('Enter an e-mail address such as alerts@example.com.', 'email');
    return view(await this.store.addDestination(workspaceId, 'email', email, null));
  }

  async removeDestination(workspaceId: string, id: string): Promise<boolean> {
    if (!/^[0-9a-f-]{36}$/i.test(id)) return false;
    return this.store.removeDestination(workspaceId, id);
  }

  async deliveries(workspaceId: string, limit = 50): Promise<DeliveryView[]> {
    return (await this.store.deliveries(workspaceId, limit)).map(({ payload: _p, workspace_id: _w, ...rest }) => rest);
  }

  private async roomFor(workspaceId: string): Promise<void> {
    if ((await this.store.destinations(workspaceId)).length >= MAX_DESTINATIONS) {
      throw DomainError.badRequest(
        `A workspace has at most ${MAX_DESTINATIONS} alert destinations: remove one first.`,
        'url',
      );
    }
  }

  /** Webhook signing secrets are sealed for their workspace (context = workspace id): a value copied to another workspace does not open. */
  private secretBox(): Promise<SecretBox> {
    return this.boxes.box(WEBHOOK_SECRET_PURPOSE);
  }

  // ---- delivery (the job) ---------------------------------------------------------------------------

  /** One attempt of one delivery; throws to be retried by the queue. */
  private async deliver(deliveryId: string, attempt: number): Promise<void> {
    const row = await this.store.delivery(deliveryId);
    if (!row || row.status === 'delivered' || row.status === 'failed') return;
    const dest = row.destination_id ? await this.store.destination(row.destination_id) : undefined;
    let result: WebhookAttempt;
    if (!dest) result = { ok: false, error: 'The destination was removed.', permanent: true };
    else if (dest.kind === 'webhook') result = await this.postTo(dest, row);
    else result = await this.mailTo(dest, row);
    const last = attempt >= this.config.ALERT_MAX_ATTEMPTS || result.permanent === true;
    const status = result.ok ? 'delivered' : last ? 'failed' : 'retrying';
    await this.store.recordAttempt(
      row.id,
      attempt,
      status,
      result.status ?? null,
      result.ok ? null : (result.error ?? 'failed'),
    );
    if (status === 'failed')
      this.logger.warn(`Alert delivery ${row.id} to ${row.target} failed after ${attempt} attempt(s): ${result.error}`);
    if (status === 'retrying') throw new Error(result.error ?? 'delivery failed');
  }

  private async postTo(dest: DestinationRow, row: DeliveryRow): Promise<WebhookAttempt> {
    const url = parseWebhookUrl(dest.target);
    if (typeof url === 'string') return { ok: false, error: url, permanent: true };
    let secret: string;
    try {
      secret = (await this.secretBox()).open(dest.secret_sealed ?? '', dest.workspace_id);
    } catch {
      return {
        ok: false,
        error:
          'The signing secret of this destination cannot be read (the instance secret changed): add the destination again.',
        permanent: true,
      };
    }
    return postWebhook(this.guard, url, {
      secret,
      messageId: row.message_id,
      body: JSON.stringify(row.payload),
      timeoutMs: this.config.WEBHOOK_TIMEOUT_MS,
    });
  }

  private async mailTo(dest: DestinationRow, row: DeliveryRow): Promise<WebhookAttempt> {
    if (!this.mail.configured)
      return { ok: false, error: 'SMTP_URL is not set: e-mail cannot be sent.', permanent: true };
    const data = row.payload.data as { text?: string; details?: unknown } | undefined;
    try {
      await this.mail.send({
        to: dest.target,
        subject: `[Beacon] ${row.title}`,
        text: `${data?.text ?? row.title}\n\nAlert: ${row.alert_kind}\nDetails:\n${JSON.stringify(data?.details ?? {}, null, 2)}\n\nYou receive this because a workspace admin added this address in Beacon, Settings > Alerts.\n`,
      });
      return { ok: true };
    } catch (e) {
      return { ok: false, error: `The mail server refused or was unreachable: ${(e as Error).message}` };
    }
  }
}

function view(r: DestinationRow): DestinationView {
  return { id: r.id, kind: r.kind, target: r.target, created_at: r.created_at };
}
