import { Injectable, Logger } from '@nestjs/common';
import { AlertsService } from '../../common/notify/alerts.service';
import { CollectStore } from './collect.store';
import { detectAlerts, ScanAlert } from './scan-alerts';

/**
 * After a scan is imported: detects what changed against the scan before it (scan-alerts.ts) and
 * sends each alert through AlertsService (every destination the workspace's admins set up in
 * Settings > Alerts; signed webhooks and e-mail, retried there). Never throws into the scan.
 */
@Injectable()
export class CollectAlerts {
  private readonly logger = new Logger('CollectAlerts');

  constructor(
    private readonly store: CollectStore,
    private readonly alerts: AlertsService,
  ) {}

  async afterScan(workspaceId: string, scanKey: string): Promise<ScanAlert[]> {
    const pair = await this.store.scansForAlerts(workspaceId, scanKey);
    if (!pair) return [];
    const found = detectAlerts(pair.business, pair.latest, pair.previous);
    for (const a of found) await this.alerts.send(workspaceId, a);
    if (found.length) this.logger.log(`Scan ${scanKey}: ${found.map((a) => a.kind).join(', ')}`);
    return found;
  }
}
