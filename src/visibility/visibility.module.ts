import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DemoSeedService } from './demo/demo-seed.service';
import { VisibilityExportService } from './export/visibility-export.service';
import { VisAnswer } from './entities/vis-answer.entity';
import { VisProject } from './entities/vis-project.entity';
import { VisPrompt } from './entities/vis-prompt.entity';
import { VisGap, VisSource, VisUrl } from './entities/vis-scan-rows.entity';
import { VisScan } from './entities/vis-scan.entity';
import { VisibilityFallbackController, VisibilityController, VisibilityIndexController } from './visibility.controller';
import { ProjectStateCache } from './store/project-state.cache';
import { VisibilityReadStore } from './store/visibility-read.store';
import { VisibilityWriteStore } from './store/visibility-write.store';
import { VisibilityIngestService } from './visibility-ingest.service';
import { VisibilityQueryService } from './visibility-query.service';

/**
 * Visibility reporting API (/api/v1/*): see ../shared/spec/visibility-api.md and docs/visibility-api.md.
 * The fallback controller comes last: it turns other methods into 405 and unknown paths into 404.
 */
@Module({
  imports: [TypeOrmModule.forFeature([VisProject, VisScan, VisPrompt, VisAnswer, VisSource, VisUrl, VisGap])],
  controllers: [VisibilityIndexController, VisibilityController, VisibilityFallbackController],
  providers: [
    VisibilityReadStore,
    VisibilityWriteStore,
    ProjectStateCache,
    VisibilityIngestService,
    VisibilityQueryService,
    DemoSeedService,
    VisibilityExportService,
  ],
  exports: [VisibilityIngestService, VisibilityQueryService, DemoSeedService, VisibilityExportService],
})
export class VisibilityModule {}
