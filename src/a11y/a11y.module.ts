import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from '../common/config/env';
import { MetricsService } from '../common/metrics/metrics.service';
import { RedisService } from '../common/redis/redis.service';
import { A11yController } from './a11y.controller';
import { ReportHistory } from './diff/report-history';
import { ResultsController } from './export/results.controller';
import { ResultsService } from './export/results.service';
import { BrowserPool } from './browser/browser-pool';
import { BullScanQueue } from './queue/bullmq-scan-queue';
import { InProcessScanQueue } from './queue/in-process-scan-queue';
import { ScanQueue } from './queue/scan-queue';
import { ScanQueueMetrics } from './queue/scan-queue-metrics';
import { ScanRunModule } from './queue/scan-run.module';
import { A11yReport } from './report/a11y-report.entity';
import { ReportsService } from './report/reports.service';
import { ScanRunner } from './scan/scan-runner';
import { scanLockStoreProvider } from './scan/lock/scan-lock-store.provider';
import { ScanService } from './scan/scan.service';
import { A11yScreenshot } from './screenshots/a11y-screenshot.entity';
import { ScreenshotsController } from './screenshots/screenshots.controller';

const scanRun = ScanRunModule.register({ standalone: false });

/**
 * Accessibility scans (/api/scan, reports, PDF, badge, /r/:id): see ../shared/spec/a11y-scan-api.md.
 * Scans go through a ScanQueue: in this process without REDIS_URL, on the BullMQ queue with it
 * (docs/a11y-fleet.md).
 */
@Module({
  imports: [TypeOrmModule.forFeature([A11yReport, A11yScreenshot]), scanRun],
  controllers: [A11yController, ResultsController, ScreenshotsController],
  providers: [
    scanLockStoreProvider,
    ScanService,
    ReportHistory,
    ResultsService,
    {
      provide: ScanQueue,
      inject: [AppConfig, RedisService, ScanRunner, ReportsService, BrowserPool, MetricsService],
      useFactory: (
        config: AppConfig,
        redis: RedisService,
        runner: ScanRunner,
        reports: ReportsService,
        pool: BrowserPool,
        metrics: MetricsService,
      ): ScanQueue => {
        const queueMetrics = new ScanQueueMetrics(metrics);
        return config.REDIS_URL
          ? new BullScanQueue(config, redis, runner, reports, queueMetrics)
          : new InProcessScanQueue(runner, pool, queueMetrics);
      },
    },
  ],
  exports: [ScanService, scanRun],
})
export class A11yModule {}
