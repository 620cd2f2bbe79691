import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** The SQL of app_secrets: one value per name, written once (the first writer wins on every instance). */
@Injectable()
export class AppSecretsStore {
  constructor(private readonly dataSource: DataSource) {}

  /** Stores `candidate` under `name` unless a value is there already, and returns the stored value. */
  async getOrCreate(name: string, candidate: string): Promise<string> {
    await this.dataSource.query('INSERT INTO app_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [
      name,
      candidate,
    ]);
    const rows = await this.dataSource.query<Array<{ value: string }>>(
      'SELECT value FROM app_secrets WHERE name = $1',
      [name],
    );
    return rows[0].value;
  }
}
