import { Global, Module } from '@nestjs/common';
import { AiProvidersService } from './ai-providers.service';
import { WorkspaceAiKeysService } from './workspace-ai-keys.service';
import { WorkspaceAiKeysStore } from './workspace-ai-keys.store';

/**
 * The AI platforms (global): AiProvidersService for every module that asks them and the workspace
 * keys behind Settings > AI providers (sealed with SecretBoxService from DatabaseModule). See
 * docs/ai-providers.md.
 */
@Global()
@Module({
  providers: [WorkspaceAiKeysStore, WorkspaceAiKeysService, AiProvidersService],
  exports: [WorkspaceAiKeysService, AiProvidersService],
})
export class AiModule {}
