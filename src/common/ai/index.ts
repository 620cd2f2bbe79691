export * from './ai.types';
export * from './ai-provider-error';
export { AiProvidersService, type AiPlatformStatus } from './ai-providers.service';
export { AiModule } from './ai.module';
export { AiCallPolicy, type AiCallPolicyOptions } from './ai-call-policy';
export { WorkspaceAiKeysService, type StoredKeyInfo } from './workspace-ai-keys.service';
export { AI_PRICES, AI_PRICES_READ_ON, answerCostUsd, priceOf, type ModelPrice } from './prices';
