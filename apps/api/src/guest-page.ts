import { builtPageDir, installFileSending, isRead, pageServer, pathOf, type FastifyInstance } from './web-page.js';

/** Where `npm run build:web` puts the guest page: `<repo>/dist/web/guest`. */
export const guestPageDir = (): string => builtPageDir('guest');

/**
 * Serves the built guest page at /q/ (opened as `/q/#<queueToken>`): its hashed assets, and
 * index.html for /q and /q/. No Referer ever leaves the page: the token is in the fragment, which
 * browsers do not send, but nothing about the page should travel either.
 */
export function installGuestPage(http: FastifyInstance, dir: string = guestPageDir()): void {
  installFileSending(http);
  const page = pageServer(dir, 'guest page');
  http.addHook('onRequest', (req, reply, done) => {
    const path = pathOf(req);
    if (path !== '/q' && !path.startsWith('/q/')) return done();
    void reply.header('Referrer-Policy', 'no-referrer');
    const inPage = path.slice('/q'.length) || '/';
    if (inPage.startsWith('/assets/')) return page.asset(reply, inPage);
    if (!isRead(req) || inPage !== '/') return done();
    // `/q` without its slash: the page's relative asset paths need `/q/`.
    if (path === '/q') return void reply.redirect('/q/', 301);
    page.index(reply);
  });
}
