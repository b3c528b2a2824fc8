import { extname } from 'node:path';
import { builtPageDir, installFileSending, isRead, pageServer, pathOf, type FastifyInstance } from './web-page.js';

/** Where `npm run build:web` puts the board page: `<repo>/dist/web/board`. */
export const boardPageDir = (): string => builtPageDir('board');

/**
 * Serves the built board page at /board: its hashed assets, and index.html for /board and any
 * /board/<view> path (the page routes itself). The page is public; everything it shows comes from the
 * API under the bearer token its login form obtains.
 */
export function installBoardPage(http: FastifyInstance, dir: string = boardPageDir()): void {
  installFileSending(http);
  const page = pageServer(dir, 'board page');
  http.addHook('onRequest', (req, reply, done) => {
    const path = pathOf(req);
    // The address `npm start` prints is the site root: it leads to the board.
    if (path === '/' && isRead(req)) return void reply.redirect('/board/', 302);
    if (path !== '/board' && !path.startsWith('/board/')) return done();
    const inPage = path.slice('/board'.length) || '/';
    if (inPage.startsWith('/assets/')) return page.asset(reply, inPage);
    // A path with an extension that is not an asset is a missing file, not a view of the page.
    if (!isRead(req) || extname(inPage) !== '') return done();
    page.index(reply);
  });
}
