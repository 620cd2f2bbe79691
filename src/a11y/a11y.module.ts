import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { A11yController } from './a11y.controller';
import { ReportHistory } from './diff/report-history';
import { ResultsController } from './export/results.controller';
import { ResultsService } from './export/results.service';
import { BrowserPool } from './browser/browser-pool';
import { A11yReport } from './report/a11y-report.entity';
import { Clock } from './report/clock';
import { ReportsService } from './report/reports.service';
import { ScanService } from './scan/scan.service';
import { Scanner } from './scan/scanner';
import { ScanEgress } from './security/scan-egress';

/** Accessibility scans (/api/scan, reports, PDF, badge, /r/:id): see ../shared/spec/a11y-scan-api.md. */
@Module({
  imports: [TypeOrmModule.forFeature([A11yReport])],
  controllers: [A11yController, ResultsController],
  providers: [ScanEgress, BrowserPool, Scanner, Clock, ReportsService, ScanService, ReportHistory, ResultsService],
  exports: [ScanService, ReportsService],
})
export class A11yModule {}
