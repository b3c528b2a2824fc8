import express, { type ErrorRequestHandler, type Express, type NextFunction, type Request, type Response } from 'express';
import { DomainException } from '../errors/domain.exception.js';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './hostile-input.js';

export const BODY_LIMIT = '64kb';

/**
 * JSON bodies up to 64 KB. The parser's own errors (too large, not JSON) are answered here, as
 * VALIDATION envelopes, because they happen before Nest's exception filter can see the request.
 */
export function installBodyParsing(app: Express): void {
  app.use(express.json({ limit: BODY_LIMIT, strict: false }));
  const onParseError: ErrorRequestHandler = (err: { type?: string }, _req, res, next) => {
    if (err?.type === 'entity.too.large') {
      res.status(400).json(DomainException.validation('The request body is larger than 64 KB.').toBody());
      return;
    }
    if (err?.type === 'entity.parse.failed') {
      res.status(400).json(DomainException.validation('The request body is not valid JSON.').toBody());
      return;
    }
    next(err);
  };
  app.use(onParseError);
  // Before any transformer runs: class-transformer recursed out of stack on JSON ~5,000 deep.
  app.use((req: Request, res: Response, next: NextFunction) => {
    if (nestsDeeperThan(req.body, MAX_JSON_DEPTH)) {
      res.status(400).json(DomainException.validation(`The request body nests deeper than ${MAX_JSON_DEPTH} levels.`).toBody());
      return;
    }
    next();
  });
}
