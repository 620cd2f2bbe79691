import { Injectable, Logger } from '@nestjs/common';

/**
 * After a scan is imported: what changed that someone should hear about. Seam until the alert
 * detection is in (issue 22 item 4).
 */
@Injectable()
export class CollectAlerts {
  private readonly logger = new Logger('CollectAlerts');

  async afterScan(workspaceId: string, scanKey: string): Promise<void> {
    this.logger.debug(`Scan ${scanKey} of ${workspaceId} imported`);
  }
}
