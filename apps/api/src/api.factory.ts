import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import type { NextFunction, Request, Response } from 'express';
import { pinoHttp } from 'pino-http';
import {
  AppConfig,
  Clock,
  createLogger,
  installBodyParsing,
  Metrics,
  PinoNestLogger,
  requestContextMiddleware,
} from '@hostboard/core';
import { BoardIoAdapter } from '@hostboard/board';
import { ApiModule } from './api.module.js';
import { installBoardPage } from './board-page.js';
import { installGuestPage } from './guest-page.js';
import { installSecurityHeaders } from './security-headers.js';

export interface CreateApiOptions {
  clock?: Clock;
}

/** Builds the api application (not yet listening): used by `main.ts` and by every e2e test. */
export async function createApiApp(config: AppConfig, options: CreateApiOptions = {}): Promise<NestExpressApplication> {
  const logger = createLogger(config.LOG_LEVEL);
  const app = await NestFactory.create<NestExpressApplication>(ApiModule.forRoot({ config, clock: options.clock }), {
    bodyParser: false,
    logger: new PinoNestLogger(logger),
    abortOnError: false,
  });
  const http = app.getHttpAdapter().getInstance();
  http.disable('x-powered-by');
  installSecurityHeaders(http, { production: config.NODE_ENV === 'production' });
  // Default none: the socket's address. Behind a load balancer, TRUST_PROXY names it (docs/operations.md).
  http.set('trust proxy', config.trustProxy);
  http.use(requestContextMiddleware);
  // One structured access-log line per request, tagged with the correlation id the client sees.
  http.use(pinoHttp({ logger, genReqId: (_req, res) => String(res.getHeader('X-Request-Id')), quietReqLogger: true }));
  const metrics = app.get(Metrics);
  http.use((req: Request, res: Response, next: NextFunction) => {
    const end = metrics.httpDuration.startTimer();
    res.on('finish', () => {
      const route = (req.route as { path?: string } | undefined)?.path ?? 'unmatched';
      end({ method: req.method, route: `${req.baseUrl}${route}`, status: String(res.statusCode) });
    });
    next();
  });
  installBodyParsing(http);
  installBoardPage(http);
  installGuestPage(http);
  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder().setTitle('hostboard').setVersion('1').addBearerAuth().build(),
  );
  SwaggerModule.setup('docs', app, document);
  const allowedOrigins = config.BOARD_ALLOWED_ORIGINS.split(',')
    .map((o) => o.trim())
    .filter(Boolean);
  app.useWebSocketAdapter(new BoardIoAdapter(app, { allowedOrigins, redisUrl: config.REDIS_URL }));
  app.enableShutdownHooks();
  await app.init();
  return app;
}
