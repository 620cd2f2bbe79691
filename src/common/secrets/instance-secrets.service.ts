import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';

/**
 * Deployment secrets that need no configuration: generated once (256 random bits), stored in the
 * database, so every instance on that database uses the same value and it survives restarts.
 * A configured value (e.g. QUOTA_HASH_SECRET) always takes precedence; callers decide that.
 */
@Injectable()
export class InstanceSecretsService {
  constructor(private readonly dataSource: DataSource) {}

  async get(name: string): Promise<string> {
    await this.dataSource.query('INSERT INTO app_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [
      name,
      randomBytes(32).toString('hex'),
    ]);
    const rows = await this.dataSource.query<Array<{ value: string }>>('SELECT value FROM app_secrets WHERE name = $1', [name]);
    return rows[0].value;
  }
}
