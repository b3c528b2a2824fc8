import { Controller, Get, Inject, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createHash, timingSafeEqual } from 'node:crypto';
import { Public } from '../access/access.decorators.js';
import { AppConfig } from '../config/app-config.js';
import { DomainException } from '../errors/domain.exception.js';
import { withTimeout } from '../redis/redis-clients.js';
import { Metrics } from './metrics.js';
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
    const results = await Promise.all(
      this.checks.map(async (c) => {
        try {
          await withTimeout(c.check(), READY_CHECK_TIMEOUT_MS, `${c.name} check`);
          return [c.name, 'ok'] as const;
        } catch {
          return [c.name, 'unreachable'] as const;
        }
      }),
    );
    const ok = results.every(([, s]) => s === 'ok');
    void res.status(ok ? 200 : 503).send({ status: ok ? 'ready' : 'not-ready', checks: Object.fromEntries(results) });
  }

  /**
   * Served only to a scraper that sends METRICS_TOKEN; to anyone else (and when no token is
   * configured) it reads as a route that does not exist, so it confirms nothing.
   */
  @Public('Prometheus scrape; answers only a request carrying METRICS_TOKEN')
  @Get('metrics')
  async scrape(@Req() req: FastifyRequest, @Res() res: FastifyReply): Promise<void> {
    if (!metricsTokenMatches(this.config.METRICS_TOKEN, req)) throw DomainException.notFound('No such route.');
    void res
      .status(200)
      .type('text/plain; version=0.0.4')
      .send(await this.metrics.registry.metrics());
  }
}

/** `Authorization: Bearer <token>` or `X-Metrics-Token: <token>`, compared in constant time. */
function metricsTokenMatches(expected: string | undefined, req: FastifyRequest): boolean {
  if (!expected) return false;
  const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
  const header = req.headers['x-metrics-token'];
  const sent = bearer ?? (typeof header === 'string' ? header : undefined);
  if (sent === undefined) return false;
  const digest = (s: string): Buffer => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(sent), digest(expected));
}
