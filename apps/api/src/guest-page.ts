import type { Express } from 'express';
import { builtPageDir, isRead, pageServer, type NextFunction, type Request, type Response } from './web-page.js';

/** Where `npm run build:web` puts the guest page: `<repo>/dist/web/guest`. */
export const guestPageDir = (): string => builtPageDir('guest');

/**
 * Serves the built guest page at /q/ (opened as `/q/#<queueToken>`): its hashed assets, and
 * index.html for /q and /q/. No Referer ever leaves the page: the token is in the fragment, which
 * browsers do not send, but nothing about the page should travel either.
 */
export function installGuestPage(http: Express, dir: string = guestPageDir()): void {
  const page = pageServer(dir, 'guest page');
  http.use('/q', (req: Request, res: Response, next: NextFunction) => {
    page.headers(res);
    res.setHeader('Referrer-Policy', 'no-referrer');
    if (req.path.startsWith('/assets/')) return page.assets(req, res, next);
    if (!isRead(req) || req.path !== '/') return next();
    // `/q` without its slash: the page's relative asset paths need `/q/`.
    if (req.originalUrl.split('?')[0] === '/q') return res.redirect(301, '/q/');
    page.index(res);
  });
}
