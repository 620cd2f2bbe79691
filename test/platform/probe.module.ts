import { Body, Controller, Get, Module, Post, Query, Req } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Request } from 'express';
import { clientIp, clientSubject } from '../../src/common/http/client-ip';
import { IsInt, IsString, Max, Min } from 'class-validator';
import { CoreModule, CoreOptions } from '../../src/common/core.module';
import { Auth, AuthContext } from '../../src/common/decorators/auth-context.decorator';
import { OkEnvelope } from '../../src/common/decorators/ok-envelope.decorator';
import { Public } from '../../src/common/decorators/public.decorator';
import { RateLimit } from '../../src/common/decorators/rate-limit.decorator';

class EchoDto {
  @IsString() name!: string;
  @IsInt() @Min(1) @Max(10) count!: number;
}

/** Routes that exercise the platform pipeline from the outside (test-only). */
@Controller('probe')
@OkEnvelope()
@RateLimit('visibility')
class ProbeController {
  @Get('whoami')
  whoami(@Auth() auth: AuthContext): Record<string, string> {
    return { workspace: auth.workspaceSlug };
  }

  @Public()
  @Post('echo')
  echo(@Body() body: EchoDto): EchoDto {
    return body;
  }

  @Public()
  @Get('boom')
  boom(): never {
    throw new Error('secret internal detail');
  }

  @Public()
  @Get('ip')
  ip(@Req() req: Request): { ip: string; subject: string } {
    return { ip: clientIp(req), subject: clientSubject(req) };
  }

  @Public()
  @Get('slow')
  async slow(): Promise<{ done: true }> {
    await new Promise((r) => setTimeout(r, 700));
    return { done: true };
  }
}

/** Database probes for fault tests: a read, a slow read, and a two-statement write in one transaction. */
@Controller('probe/db')
@OkEnvelope()
@Public()
class ProbeDbController {
  constructor(private readonly dataSource: DataSource) {}

  @Get()
  async read(@Query('sleep') sleep?: string): Promise<{ value: number }> {
    const rows: Array<{ value: number }> = await this.dataSource.query('SELECT 1 AS value, pg_sleep($1)', [
      Number(sleep ?? 0),
    ]);
    return { value: rows[0].value };
  }

  /** Inserts `tag` twice with a pause between: a cut in the pause must leave neither row. */
  @Post('write')
  async write(@Query('tag') tag: string): Promise<{ written: number }> {
    await this.dataSource.transaction(async (m) => {
      await m.query('INSERT INTO probe_writes (tag) VALUES ($1)', [tag]);
      await m.query('SELECT pg_sleep(1)');
      await m.query('INSERT INTO probe_writes (tag) VALUES ($1)', [tag]);
    });
    return { written: 2 };
  }
}

@Module({ controllers: [ProbeController, ProbeDbController] })
class ProbeModule {}

export const probeApp = (options: CoreOptions) => ({
  module: class ProbeAppModule {},
  imports: [CoreModule.forRoot(options), ProbeModule],
});
