import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import {
  AppConfig,
  BODY_LIMIT_BYTES,
  Clock,
  createLogger,
  DomainException,
  httpStatusOf,
  installAccessLog,
  installBodyParsing,
  installRequestContext,
  Metrics,
  PinoNestLogger,
  stopPeriodicFlush,
  STOP_SIGNALS,
} from '@hostboard/core';
import { BoardIoAdapter } from '@hostboard/board';
import { ApiModule } from './api.module.js';
import { installBoardPage } from './board-page.js';
import { installGuestPage } from './guest-page.js';
import { recordRoutes } from './route-table.js';
import { installSecurityHeaders, setSecurityHeaders } from './security-headers.js';

export interface CreateApiOptions {
  clock?: Clock;
  /**
   * Stop and exit on SIGTERM/SIGINT (default true). A program hosting the api in its own process (the
   * ledger) handles the signals itself: Nest's hooks exited 0 while the ledger still removed its database.
   */
  signalHooks?: boolean;
}

/**
 * Builds the api application (not yet listening): used by `main.ts` and by every e2e test. It runs on
 * Fastify: per-request work is a handful of hooks (headers, context, body, one access-log line).
 */
export async function createApiApp(config: AppConfig, options: CreateApiOptions = {}): Promise<NestFastifyApplication> {
  const logger = createLogger(config.LOG_LEVEL, { buffered: true });
  const trust = config.trustProxy;
  const adapter = new FastifyAdapter({
    // Default none: the socket's address. Behind a load balancer, TRUST_PROXY names it (docs/operations.md);
    // a hop count trusts that many proxies nearest the api, as Express's "trust proxy" did.
    trustProxy: typeof trust === 'number' ? (_address: string, hop: number) => hop < trust : trust,
    bodyLimit: BODY_LIMIT_BYTES,
    // As Express routed: `/health/` is `/health`, and a long path segment is a 404, not a 414.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 8192 },
    // What the router refuses before any hook runs (a path with a malformed %-escape, a link cut
    // short) is answered in the API's envelope and with the headers of every answer, not as
    // Fastify's own `{statusCode, code: "FST_ERR_BAD_URL"}`.
    frameworkErrors: (error: FastifyError, req: FastifyRequest, reply: FastifyReply) => {
      setSecurityHeaders(req, reply);
      const refusal =
        error.code === 'FST_ERR_BAD_URL'
          ? DomainException.validation('The address is not valid: it has a malformed %-escape.')
          : DomainException.notFound('No such route.');
      void reply.code(httpStatusOf(refusal.code)).send(refusal.toBody());
    },
  });
  const app = await NestFactory.create<NestFastifyApplication>(ApiModule.forRoot({ config, clock: options.clock }), adapter, {
    bodyParser: false,
    logger: new PinoNestLogger(logger),
    abortOnError: false,
  });
  const http = app.getHttpAdapter().getInstance();
  recordRoutes(app);
  installSecurityHeaders(http, { production: config.NODE_ENV === 'production' });
  installRequestContext(http);
  installAccessLog(http, logger, app.get(Metrics));
  http.addHook('onClose', (_instance, done) => {
    stopPeriodicFlush(logger);
    done();
  });
  installBodyParsing(http);
  installBoardPage(http);
  installGuestPage(http);
  // Built on the first request for /docs, not at every start: reading every route's metadata costs
  // about 0.1 s of CPU in a built process (more in each test app), and most starts never serve it.
  SwaggerModule.setup('docs', app, () =>
    SwaggerModule.createDocument(app, new DocumentBuilder().setTitle('hostboard').setVersion('1').addBearerAuth().build()),
  );
  app.useWebSocketAdapter(
    new BoardIoAdapter(app, {
      allowedOrigins: config.boardAllowedOrigins,
      redisUrl: config.REDIS_URL,
      jobsPrefix: config.JOBS_PREFIX,
    }),
  );
  // After a signal's shutdown, exit (not Nest's default of raising the signal again): a process
  // killed by the signal never runs its 'exit' handlers, and pino's is the one that writes the
  // buffered log lines, the last requests' and the shutdown's among them.
  // SIGTERM and SIGINT only: Nest's empty list stops on every signal it knows (SIGHUP, SIGUSR2, …),
  // which process managers send for other things (installProcessGuards carries on through those).
  if (options.signalHooks !== false) app.enableShutdownHooks([...STOP_SIGNALS], { useProcessExit: true });
  await app.init();
  await http.ready();
  return app;
}
