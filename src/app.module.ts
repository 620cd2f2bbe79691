import { DynamicModule, Module } from '@nestjs/common';
import { A11yModule } from './a11y/a11y.module';
import { CoreModule, CoreOptions } from './common/core.module';
import { PdfToolsModule } from './pdf-tools/pdf-tools.module';
import { VisibilityModule } from './visibility/visibility.module';
import { WebModule } from './web/web.module';

/** The whole service: the platform plus the three products. */
@Module({})
export class AppModule {
  static forRoot(options: CoreOptions = {}): DynamicModule {
    return {
      module: AppModule,
      imports: [CoreModule.forRoot(options), VisibilityModule, PdfToolsModule, A11yModule, WebModule],
    };
  }
}
