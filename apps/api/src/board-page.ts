import type { Express } from 'express';
import { extname } from 'node:path';
import { builtPageDir, isRead, pageServer, type NextFunction, type Request, type Response } from './web-page.js';

/** Where `npm run build:web` puts the board page: `<repo>/dist/web/board`. */
export const boardPageDir = (): string => builtPageDir('board');

/**
 * Serves the built board page at /board: its hashed assets, and index.html for /board and any
 * /board/<view> path (the page routes itself). The page is public; everything it shows comes from the
 * API under the bearer token its login form obtains.
 */
export function installBoardPage(http: Express, dir: string = boardPageDir()): void {
  const page = pageServer(dir, 'board page');
  // The address `npm start` prints is the site root: it leads to the board.
  http.use((req: Request, res: Response, next: NextFunction) => {
    if (req.path === '/' && isRead(req)) return res.redirect(302, '/board/');
    next();
  });
  http.use('/board', (req: Request, res: Response, next: NextFunction) => {
    page.headers(res);
    if (req.path.startsWith('/assets/')) return page.assets(req, res, next);
    // A path with an extension that is not an asset is a missing file, not a view of the page.
    if (!isRead(req) || extname(req.path) !== '') return next();
    page.index(res);
  });
}
