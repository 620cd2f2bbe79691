import { Global, Module } from '@nestjs/common';
import { AiProvidersService } from './ai-providers.service';

/** The AI platforms (global): AiProvidersService for every module that asks them. See docs/ai-providers.md. */
@Global()
@Module({
  providers: [AiProvidersService],
  exports: [AiProvidersService],
})
export class AiModule {}
