import { Controller, Get, Inject, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '../access/access.decorators.js';
import { AppConfig } from '../config/app-config.js';
import { DomainException } from '../errors/domain.exception.js';
import { withTimeout } from '../redis/redis-clients.js';
import { Metrics } from './metrics.js';
import { metricsTokenMatches } from './metrics-token.js';
import { READINESS_CHECKS, type DependencyState, type ReadinessCheck } from './readiness.js';

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

  /**
   * 200 `ready` when every dependency is `ok`; 200 `degraded` when only one the api serves without
   * (Redis) is not, naming it; 503 `not-ready` only when one it cannot serve without (the database)
   * is not. Always within a second: each check gets READY_CHECK_TIMEOUT_MS.
   */
  @Public('readiness probe')
  @Get('ready')
  async ready(@Res() res: FastifyReply): Promise<void> {
    const results = await this.runChecks();
    const down = results.filter(([, state]) => state !== 'ok');
    const status = down.length === 0 ? 'ready' : down.some(([, , required]) => required) ? 'not-ready' : 'degraded';
    void res
      .status(status === 'not-ready' ? 503 : 200)
      .send({ status, checks: Object.fromEntries(results.map(([name, state]) => [name, state])) });
  }

  private runChecks(): Promise<Array<readonly [string, DependencyState, boolean]>> {
    return Promise.all(
      this.checks.map(async (c) => {
        try {
          return [c.name, await withTimeout(c.check(), READY_CHECK_TIMEOUT_MS, `${c.name} check`), c.required] as const;
        } catch {
          return [c.name, 'unreachable', c.required] as const;
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
