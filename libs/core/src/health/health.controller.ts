import { Controller, Get, Header, HttpCode, Inject, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { Public } from '../access/access.decorators.js';
import { Metrics } from './metrics.js';
import { READINESS_CHECKS, type ReadinessCheck } from './readiness.js';

@ApiExcludeController()
@Controller()
export class HealthController {
  constructor(
    @Inject(READINESS_CHECKS) private readonly checks: ReadinessCheck[],
    private readonly metrics: Metrics,
  ) {}

  @Public('liveness probe')
  @Get('health')
  health(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Public('readiness probe')
  @Get('ready')
  async ready(@Res() res: Response): Promise<void> {
    const results = await Promise.all(
      this.checks.map(async (c) => {
        try {
          await c.check();
          return [c.name, 'ok'] as const;
        } catch {
          return [c.name, 'unreachable'] as const;
        }
      }),
    );
    const ok = results.every(([, s]) => s === 'ok');
    res.status(ok ? 200 : 503).json({ status: ok ? 'ready' : 'not-ready', checks: Object.fromEntries(results) });
  }

  @Public('Prometheus scrape')
  @Get('metrics')
  @HttpCode(200)
  @Header('Content-Type', 'text/plain; version=0.0.4')
  async scrape(): Promise<string> {
    return this.metrics.registry.metrics();
  }
}
