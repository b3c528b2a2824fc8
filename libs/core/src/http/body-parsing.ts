import type { FastifyInstance } from 'fastify';
import { DomainException } from '../errors/domain.exception.js';
import { holdsMoreValuesThan, MAX_JSON_DEPTH, MAX_JSON_VALUES, nestsDeeperThan } from './hostile-input.js';

export const BODY_LIMIT_BYTES = 64 * 1024;

/** The refusal of a body over the limit: Fastify stops reading it and the exception filter answers with this. */
export const BODY_TOO_LARGE = 'The request body is larger than 64 KB.';

/**
 * JSON bodies up to 64 KB, answered as VALIDATION envelopes when they are not JSON, nest too deep or hold too many values
 * (the exception filter sees the parser's errors). Any other content type is not read, as with
 * express.json() before: the handler sees no body and its DTO says what is missing.
 */
export function installBodyParsing(http: FastifyInstance): void {
  // Fastify's own parsers answer an empty JSON body and a text/plain one otherwise than the API does.
  http.removeAllContentTypeParsers();
  http.addContentTypeParser(
    'application/json',
    { parseAs: 'string', bodyLimit: BODY_LIMIT_BYTES },
    (_req, body: string | Buffer, done: (err: Error | null, value?: unknown) => void) => {
      const text = typeof body === 'string' ? body : body.toString('utf8');
      // express.json() read an empty body as {}.
      if (text === '') return done(null, {});
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        return done(DomainException.validation('The request body is not valid JSON.'));
      }
      // Before any transformer runs: class-transformer recursed out of stack on JSON ~5,000 deep.
      if (nestsDeeperThan(value, MAX_JSON_DEPTH)) {
        return done(DomainException.validation(`The request body nests deeper than ${MAX_JSON_DEPTH} levels.`));
      }
      if (holdsMoreValuesThan(value, MAX_JSON_VALUES)) {
        return done(DomainException.validation(`The request body holds more than ${MAX_JSON_VALUES} values.`));
      }
      done(null, value);
    },
  );
  http.addContentTypeParser('*', (_req, _payload, done: (err: Error | null, value?: unknown) => void) => done(null, undefined));
}
