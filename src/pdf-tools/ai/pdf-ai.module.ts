import { Module } from '@nestjs/common';
import { PdfToolsModule } from '../pdf-tools.module';
import { PdfAiUsageStore } from './pdf-ai-usage.store';
import { PdfAiService } from './pdf-ai.service';

/** The PDF AI features' core (summary, chat, translation) on the common AI providers. */
@Module({
  imports: [PdfToolsModule],
  providers: [PdfAiService, PdfAiUsageStore],
  exports: [PdfAiService],
})
export class PdfAiModule {}
