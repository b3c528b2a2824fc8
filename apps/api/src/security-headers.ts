import type { Express, NextFunction, Request, Response } from 'express';
import helmet from 'helmet';
import { DomainException } from '@hostboard/core';

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
 * in production no source maps, whichever page directory they are left in.
 */
export function installSecurityHeaders(http: Express, options: { production: boolean }): void {
  http.use((req: Request, res: Response, next: NextFunction) => {
    const docsPath = req.path === '/docs' || req.path.startsWith('/docs/') || req.path.startsWith('/docs-');
    return (docsPath ? docs : pages)(req, res, next);
  });
  if (options.production) {
    http.use((req: Request, res: Response, next: NextFunction) => {
      if (!req.path.endsWith('.map')) return next();
      res.status(404).json(DomainException.notFound('No such route.').toBody());
    });
  }
}
