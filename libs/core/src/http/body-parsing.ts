import express, { type ErrorRequestHandler, type Express } from 'express';
import { DomainException } from '../errors/domain.exception.js';

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
}
