import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BrowserPool } from '../browser/browser-pool';
import { PageChecks } from '../checks/page-checks';
import { A11yReport } from '../report/a11y-report.entity';
import { Clock } from '../report/clock';
import { ReportStore } from '../report/report.store';
import { ReportsService } from '../report/reports.service';
import { ScanRunner } from '../scan/scan-runner';
import { Scanner } from '../scan/scanner';
import { A11yScreenshot } from '../screenshots/a11y-screenshot.entity';
import { ScreenshotRowsStore } from '../screenshots/screenshot-rows.store';
import { ScreenshotStore } from '../screenshots/screenshot.store';
import { Screenshots } from '../screenshots/screenshots';
import { ScanEgress } from '../security/scan-egress';
import { SCAN_WORKER_STANDALONE, ScanWorker } from './scan-worker';

const RUN_PROVIDERS = [
  ScanEgress,
  BrowserPool,
  Scanner,
  Clock,
  ReportStore,
  ReportsService,
  ScreenshotRowsStore,
  ScreenshotStore,
  Screenshots,
  PageChecks,
  ScanRunner,
  ScanWorker,
];

/**
 * What running a scan needs (egress, browser pool, scanner, report and screenshot stores) and the
 * queue worker: imported by A11yModule (the API, worker per SCAN_WORKER_IN_PROCESS) and by the
 * worker process (`standalone`: always a worker).
 */
@Module({})
export class ScanRunModule {
  static register(options: { standalone: boolean }): DynamicModule {
    return {
      module: ScanRunModule,
      imports: [TypeOrmModule.forFeature([A11yReport, A11yScreenshot])],
      providers: [...RUN_PROVIDERS, { provide: SCAN_WORKER_STANDALONE, useValue: options.standalone }],
      exports: RUN_PROVIDERS,
    };
  }
}
