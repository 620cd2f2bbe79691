import { Module } from '@nestjs/common';
import { TrackingService } from './tracking.service';
import { TrackingStore } from './tracking.store';

/** What each workspace tracks (set in the dashboard): see docs/visibility-collection.md. */
@Module({
  providers: [TrackingStore, TrackingService],
  exports: [TrackingService, TrackingStore],
})
export class TrackingModule {}
