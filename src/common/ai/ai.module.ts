import { Global, Module } from '@nestjs/common';
import { SecretBoxService } from '../secrets/secret-box';
import { AiProvidersService } from './ai-providers.service';
import { WorkspaceAiKeysService } from './workspace-ai-keys.service';
import { WorkspaceAiKeysStore } from './workspace-ai-keys.store';

/**
 * The AI platforms (global): AiProvidersService for every module that asks them, the workspace
 * keys behind Settings > AI providers, and SecretBoxService (sealing keyed from the instance
 * secret, for any module that stores a third party's secret). See docs/ai-providers.md.
 */
@Global()
@Module({
  providers: [SecretBoxService, WorkspaceAiKeysStore, WorkspaceAiKeysService, AiProvidersService],
  exports: [SecretBoxService, WorkspaceAiKeysService, AiProvidersService],
})
export class AiModule {}
