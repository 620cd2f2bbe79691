import { Module } from '@nestjs/common';
import { TrackingModule } from '../tracking/tracking.module';
import { VisibilityModule } from '../visibility.module';
import { CollectAlerts } from './collect-alerts';
import { CollectService } from './collect.service';
import { CollectStore } from './collect.store';

/** Collection scans: Beacon asks the AI platforms itself (docs/visibility-collection.md). */
@Module({
  imports: [VisibilityModule, TrackingModule],
  providers: [CollectStore, CollectService, CollectAlerts],
  exports: [CollectService],
})
export class CollectModule {}
