import { Module } from '@nestjs/common';
import { A11yModule } from '../a11y.module';
import { SiteExportService } from './site-export';
import { SitesService } from './sites.service';
import { SitesStore } from './sites.store';
import { SiteLogin } from './site-login';

/** Accessibility monitoring of saved sites (docs/a11y-monitoring.md), on the public scan engine. */
@Module({
  imports: [A11yModule],
  providers: [SitesStore, SitesService, SiteLogin, SiteExportService],
  exports: [SitesService, SiteExportService],
})
export class SitesModule {}
