import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { AppSecretsStore } from './app-secrets.store';

/**
 * Deployment secrets that need no configuration: generated once (256 random bits), stored in the
 * database, so every instance on that database uses the same value and it survives restarts.
 * A configured value (e.g. QUOTA_HASH_SECRET) always takes precedence; callers decide that.
 */
@Injectable()
export class InstanceSecretsService {
  constructor(private readonly store: AppSecretsStore) {}

  async get(name: string): Promise<string> {
    return this.store.getOrCreate(name, randomBytes(32).toString('hex'));
  }
}
