import type { FastifyInstance } from 'fastify';
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

const pages = helmet({ ...common, contentSecurityPolicy: { useDefaults: false, directives: PAGE_DIRECTIVES } });
const docs = helmet({ ...common, contentSecurityPolicy: { useDefaults: false, directives: DOCS_DIRECTIVES } });

/**
 * Security headers on every answer (nosniff, frame and referrer policy, CSP, HSTS behind TLS), and
 * in production no source maps, whichever page directory they are left in. helmet writes to the
 * Node.js response, whose headers Fastify keeps on every answer it sends (errors and 404s included);
 * a page's own headers set on the reply take precedence.
 */
export function installSecurityHeaders(http: FastifyInstance, options: { production: boolean }): void {
  http.addHook('onRequest', (req, reply, done) => {
    const path = pathOf(req);
    const docsPath = path === '/docs' || path.startsWith('/docs/') || path.startsWith('/docs-');
    // helmet calls next() with nothing, or with the Error it met.
    (docsPath ? docs : pages)(req.raw, reply.raw, done as (err?: unknown) => void);
  });
  if (options.production) {
    http.addHook('onRequest', (req, reply, done) => {
      if (!pathOf(req).endsWith('.map')) return done();
      void reply.code(404).send(DomainException.notFound('No such route.').toBody());
    });
  }
}
