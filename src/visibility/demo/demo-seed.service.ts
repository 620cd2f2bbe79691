import { Injectable, Logger } from '@nestjs/common';
import { ApiKeysService } from '../../common/api-keys/api-keys.service';
import { AppConfig } from '../../common/config/env';
import { DomainError } from '../../common/errors/domain-error';
import { ErrorCode } from '../../common/errors/error-code';
import { VisibilityIngestService } from '../visibility-ingest.service';
import { demoImports } from './demo-data';

export const DEMO_WORKSPACE = 'demo';

export interface DemoSeedResult {
  workspace: string;
  key: string;
  scans: number;
  answers: number;
}

/** Loads the demo workspace (6 weekly scans, 3 platforms, 24 prompts, 3 competitors) and creates a key for it. */
@Injectable()
export class DemoSeedService {
  private readonly logger = new Logger('DemoSeed');

  constructor(
    private readonly config: AppConfig,
    private readonly apiKeys: ApiKeysService,
    private readonly ingest: VisibilityIngestService,
  ) {}

  /** `demo:seed`: fails with 409 conflict when the workspace `demo` exists. */
  async seed(): Promise<DemoSeedResult> {
    await this.apiKeys.createWorkspace(DEMO_WORKSPACE, 'Demo: Acme CRM');
    let answers = 0;
    const files = demoImports();
    for (const file of files) answers += (await this.ingest.importScan(DEMO_WORKSPACE, file)).answers.total;
    const key = await this.apiKeys.createKey(DEMO_WORKSPACE, 'demo');
    return { workspace: DEMO_WORKSPACE, key: key.key, scans: files.length, answers };
  }

  /**
   * First start: with SEED_DEMO on and no workspace at all, seed the demo and return its key;
   * otherwise null. Two instances starting together: the loser of the slug race gets null.
   */
  async seedOnFirstStart(): Promise<{ key: string; workspace: string } | null> {
    if (!this.config.SEED_DEMO) return null;
    if (await this.apiKeys.hasWorkspaces()) return null;
    try {
      const r = await this.seed();
      this.logger.log(`Demo workspace "${r.workspace}" loaded: ${r.scans} scans, ${r.answers} answers`);
      return { key: r.key, workspace: r.workspace };
    } catch (e) {
      if (e instanceof DomainError && e.code === ErrorCode.Conflict) return null;
      throw e;
    }
  }
}
