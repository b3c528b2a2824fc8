import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import helmet from 'helmet';
import { DomainException } from '@hostboard/core';
import { pathOf } from './web-page.js';

/**
 * The pages (the board at /board, the guest page at /q/) load only their own hashed scripts and
 * stylesheets, open their socket and API calls to the same origin, and show QR codes as inline SVG or
 * data: images. Preact sets styles through the CSSOM, which style-src does not govern, so no
 * 'unsafe-inline' is needed. The same policy covers JSON answers, where it only forbids framing.
 */
const PAGE_DIRECTIVES = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'"],
  imgSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  objectSrc: ["'none'"],
  frameAncestors: ["'none'"],
  baseUri: ["'none'"],
  formAction: ["'none'"],
};

// Swagger UI (/docs) writes inline <style> blocks and style attributes; it stays script-clean.
const DOCS_DIRECTIVES = { ...PAGE_DIRECTIVES, styleSrc: ["'self'", "'unsafe-inline'"] };

const common = {
  // No upgrade-insecure-requests: a tablet on the floor may reach the api over plain http on the LAN.
  xFrameOptions: { action: 'deny' as const },
  referrerPolicy: { policy: 'no-referrer' as const },
};

const pages = headersOf(helmet({ ...common, contentSecurityPolicy: { useDefaults: false, directives: PAGE_DIRECTIVES } }));
const docs = headersOf(helmet({ ...common, contentSecurityPolicy: { useDefaults: false, directives: DOCS_DIRECTIVES } }));

type HeaderList = ReadonlyArray<readonly [string, string]>;

/**
 * The headers a helmet middleware sets, read once at boot. Why: our policies have no per-request
 * part (no nonces), yet helmet's fourteen middlewares ran on every request, about 0.1 ms of CPU each
 * time; the same headers are now copied from this list. helmet still decides what they are.
 */
function headersOf(middleware: ReturnType<typeof helmet>): HeaderList {
  const set = new Map<string, string>();
  const removed = new Set<string>();
  const res = {
    setHeader: (name: string, value: unknown) => void set.set(name, String(value)),
    removeHeader: (name: string) => void removed.add(name.toLowerCase()),
  };
  let failed: unknown;
  middleware({ headers: {} } as never, res as never, (err?: unknown) => void (failed = err));
  if (failed instanceof Error) throw failed;
  if (failed) throw new Error('helmet refused its own options');
  // helmet removes X-Powered-By; Fastify never sets it, so there is nothing to remove per request.
  return [...set].filter(([name]) => !removed.has(name.toLowerCase()));
}

/** The headers of `installSecurityHeaders`, also for an answer the router gives before any hook runs. */
export function setSecurityHeaders(req: FastifyRequest, reply: FastifyReply): void {
  const path = pathOf(req);
  const docsPath = path === '/docs' || path.startsWith('/docs/') || path.startsWith('/docs-');
  for (const [name, value] of docsPath ? docs : pages) reply.raw.setHeader(name, value);
  // API answers carry session and queue tokens and guests' names and numbers: no browser or proxy
  // keeps a copy (a shared tablet's cache, a corporate proxy). The pages and their hashed assets stay cacheable.
  if (path.startsWith('/v1/')) reply.raw.setHeader('Cache-Control', 'no-store');
}

/**
 * Security headers on every answer (nosniff, frame and referrer policy, CSP, HSTS behind TLS), and
 * in production no source maps, whichever page directory they are left in. helmet writes to the
 * Node.js response, whose headers Fastify keeps on every answer it sends (errors and 404s included);
 * a page's own headers set on the reply take precedence.
 */
export function installSecurityHeaders(http: FastifyInstance, options: { production: boolean }): void {
  http.addHook('onRequest', (req, reply, done) => {
    setSecurityHeaders(req, reply);
    done();
  });
  if (options.production) {
    http.addHook('onRequest', (req, reply, done) => {
      if (!pathOf(req).endsWith('.map')) return done();
      void reply.code(404).send(DomainException.notFound('No such route.').toBody());
    });
  }
}
