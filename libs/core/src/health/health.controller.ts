import { Controller, Get, Inject, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '../access/access.decorators.js';
import { AppConfig } from '../config/app-config.js';
import { DomainException } from '../errors/domain.exception.js';
import { withTimeout } from '../redis/redis-clients.js';
import { Metrics } from './metrics.js';
import { metricsTokenMatches } from './metrics-token.js';
import { READINESS_CHECKS, type ReadinessCheck } from './readiness.js';

/** Each dependency gets this long to answer `/ready`: a dependency that hangs reads as unreachable. */
export const READY_CHECK_TIMEOUT_MS = 800;

@ApiExcludeController()
@Controller()
export class HealthController {
  constructor(
    @Inject(READINESS_CHECKS) private readonly checks: ReadinessCheck[],
    private readonly metrics: Metrics,
    private readonly config: AppConfig,
  ) {}

  @Public('liveness probe')
  @Get('health')
  health(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /** 200 when every dependency answers, else 503 naming each one that did not; always within a second. */
  @Public('readiness probe')
  @Get('ready')
  async ready(@Res() res: FastifyReply): Promise<void> {
    const results = await this.runChecks();
    const ok = results.every(([, s]) => s === 'ok');
    void res.status(ok ? 200 : 503).send({ status: ok ? 'ready' : 'not-ready', checks: Object.fromEntries(results) });
  }

  private runChecks(): Promise<Array<readonly [string, 'ok' | 'unreachable']>> {
    return Promise.all(
      this.checks.map(async (c) => {
        try {
          await withTimeout(c.check(), READY_CHECK_TIMEOUT_MS, `${c.name} check`);
          return [c.name, 'ok'] as const;
        } catch {
          return [c.name, 'unreachable'] as const;
        }
      }),
    );
  }

  /**
   * Served only to a scraper that sends METRICS_TOKEN; to anyone else (and when no token is
   * configured) it reads as a route that does not exist, so it confirms nothing.
   */
  @Public('Prometheus scrape; answers only a request carrying METRICS_TOKEN')
  @Get('metrics')
  async scrape(@Req() req: FastifyRequest, @Res() res: FastifyReply): Promise<void> {
    if (!metricsTokenMatches(this.config.METRICS_TOKEN, req.headers)) throw DomainException.notFound('No such route.');
    // The dependencies as this process reaches them now (each process of a cluster checks its own).
    for (const [name, state] of await this.runChecks())
      this.metrics.dependencyUp.set({ dependency: name }, state === 'ok' ? 1 : 0);
    void res
      .status(200)
      .type('text/plain; version=0.0.4')
      .send(await this.metrics.text());
  }
}
