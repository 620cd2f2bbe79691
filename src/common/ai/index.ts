export * from './ai.types';
export * from './ai-provider-error';
export { AiProvidersService, type AiPlatformStatus } from './ai-providers.service';
export { AiModule } from './ai.module';
