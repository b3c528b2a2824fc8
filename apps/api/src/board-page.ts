import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { existsSync } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where `npm run build:web` puts the board page: `<repo>/dist/web/board`. */
export function boardPageDir(): string {
  // dist/apps/api/src once built; apps/api/src when run from source (the tests).
  const up = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
  return basename(up) === 'dist' ? join(up, 'web/board') : join(up, 'dist/web/board');
}

// The page reads and writes through the same origin only; the QR code is inline SVG, not a script.
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
 * Serves the built board page at /board: its hashed assets, and index.html for /board and any
 * /board/<view> path (the page routes itself). Static files outside Nest's controllers, installed as
 * middleware rather than routes (so the access matrix, which reads the router's routes, is not
 * asked to cover them): the page is public, and everything it shows comes from the API under the
 * bearer token its login form obtains.
 */
export function installBoardPage(http: Express, dir: string = boardPageDir()): void {
  const index = join(dir, 'index.html');
  const assets = express.static(dir, {
    index: false,
    redirect: false,
    fallthrough: true,
    // Vite names assets by content hash: they never change under one name.
    immutable: true,
    maxAge: '365d',
  });
  // The address `npm start` prints is the site root: it leads to the board.
  http.use((req: Request, res: Response, next: NextFunction) => {
    if (req.path === '/' && (req.method === 'GET' || req.method === 'HEAD')) return res.redirect(302, '/board/');
    next();
  });
  http.use('/board', (req: Request, res: Response, next: NextFunction) => {
    res.setHeader('Content-Security-Policy', PAGE_CSP);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    if (req.path.startsWith('/assets/')) return assets(req, res, next);
    // A path with an extension that is not an asset is a missing file, not a view of the page.
    if ((req.method !== 'GET' && req.method !== 'HEAD') || extname(req.path) !== '') return next();
    if (!existsSync(index)) {
      res.status(503).type('text/plain').send('The board page is not built: run `npm run build`.');
      return;
    }
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(index);
  });
}
