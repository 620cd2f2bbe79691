import { Module } from '@nestjs/common';
import { A11yModule } from '../a11y/a11y.module';
import { AccountsModule } from '../accounts/accounts.module';
import { PdfToolsModule } from '../pdf-tools/pdf-tools.module';
import { VisibilityModule } from '../visibility/visibility.module';
import { AiProvidersSettingsController } from './ai-providers.controller';
import { AlertsController } from './alerts.controller';
import { AssetsController } from './assets.controller';
import { AuthController } from './auth.controller';
import { CsrfService } from './csrf.service';
import { DashboardController } from './dashboard.controller';
import { DashboardExportController } from './dashboard-export.controller';
import { DashboardTrendsController } from './dashboard-trends.controller';
import { HomeController, WebFallbackController } from './home.controller';
import { OneTimeProofService } from './one-time-proof.service';
import { PdfController } from './pdf.controller';
import { PdfThumbnailsController } from './pdf-thumbnails.controller';
import { PdfZipController } from './pdf-zip.controller';
import { PdfThumbnailsService } from '../pdf-tools/render/thumbnails';
import { PdfImagesController } from './pdf-images.controller';
import { PdfOcrController } from './pdf-ocr.controller';
import { ConvertSupport } from './pdf-convert.support';
import { PdfAiController } from './pdf-ai.controller';
import { PdfAiModule } from '../pdf-tools/ai/pdf-ai.module';
import { ScanController } from './scan.controller';
import { SettingsController } from './settings.controller';
import { TrackingController } from './tracking.controller';
import { TrackingModule } from '../visibility/tracking/tracking.module';
import { CollectModule } from '../visibility/collect/collect.module';
import { ScansController } from './scans.controller';
import { SignupController } from './signup.controller';
import { SitesController } from './sites.controller';
import { SitesModule } from '../a11y/sites/sites.module';
import { WebGuard } from './web.guard';
import { ErrorPages } from '../common/filters/error-pages';
import { WebErrorPages, WebExceptionFilter } from './web-exception.filter';

/**
 * The website (docs/web.md): sign-in, the dashboard on the visibility API's services, settings
 * (API keys, members), the PDF tools and the scan page. Server-rendered HTML, one CSS and one JS
 * file, strict CSP. Import it last: its fallback controller answers GETs nobody else serves.
 */
@Module({
  imports: [
    AccountsModule,
    VisibilityModule,
    TrackingModule,
    CollectModule,
    A11yModule,
    SitesModule,
    PdfToolsModule,
    PdfAiModule,
  ],
  controllers: [
    AssetsController,
    HomeController,
    AuthController,
    SignupController,
    DashboardController,
    DashboardExportController,
    DashboardTrendsController,
    TrackingController,
    ScansController,
    SettingsController,
    AiProvidersSettingsController,
    AlertsController,
    SitesController,
    ScanController,
    PdfThumbnailsController,
    PdfZipController,
    PdfImagesController,
    PdfOcrController,
    PdfAiController,
    PdfController,
    WebFallbackController,
  ],
  providers: [
    ConvertSupport,
    PdfThumbnailsService,
    CsrfService,
    OneTimeProofService,
    WebGuard,
    WebExceptionFilter,
    { provide: ErrorPages, useClass: WebErrorPages },
  ],
})
export class WebModule {}
