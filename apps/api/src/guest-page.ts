import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { existsSync } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where `npm run build:web` puts the guest page: `<repo>/dist/web/guest`. */
export function guestPageDir(): string {
  const up = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
  return basename(up) === 'dist' ? join(up, 'web/guest') : join(up, 'dist/web/guest');
}

// Same origin only; and no Referer ever leaves the page (the token is in the fragment, which
// browsers do not send, but nothing about the page should travel either).
const PAGE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

/**
 * Serves the built guest page at /q/ (opened as `/q/#<queueToken>`): its hashed assets, and
 * index.html for /q and /q/. Middleware, like the board page, so the access matrix (which reads the
 * router's routes) is not asked to cover static files; the page itself reads through the API.
 */
export function installGuestPage(http: Express, dir: string = guestPageDir()): void {
  const index = join(dir, 'index.html');
  const assets = express.static(dir, { index: false, redirect: false, fallthrough: true, immutable: true, maxAge: '365d' });
  http.use('/q', (req: Request, res: Response, next: NextFunction) => {
    res.setHeader('Content-Security-Policy', PAGE_CSP);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    if (req.path.startsWith('/assets/')) return assets(req, res, next);
    if ((req.method !== 'GET' && req.method !== 'HEAD') || req.path !== '/' || extname(req.path) !== '') return next();
    // `/q` without its slash: the page's relative asset paths need `/q/`.
    if (req.originalUrl.split('?')[0] === '/q') return res.redirect(301, '/q/');
    if (!existsSync(index)) {
      res.status(503).type('text/plain').send('The guest page is not built: run `npm run build`.');
      return;
    }
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(index);
  });
}
