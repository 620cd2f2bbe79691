import { Body, Controller, Get, Module, Post, Req } from '@nestjs/common';
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

@Module({ controllers: [ProbeController] })
class ProbeModule {}

export const probeApp = (options: CoreOptions) => ({
  module: class ProbeAppModule {},
  imports: [CoreModule.forRoot(options), ProbeModule],
});
