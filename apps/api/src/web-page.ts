import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import fastifyStatic from '@fastify/static';
import { existsSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where `npm run build:web` puts a page: `<repo>/dist/web/<name>`. */
export function builtPageDir(name: 'board' | 'guest'): string {
  // dist/apps/api/src once built; apps/api/src when run from source (the tests).
  const up = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
  return basename(up) === 'dist' ? join(up, 'web', name) : join(up, 'dist/web', name);
}

// The pages read and write through the same origin only; QR codes are inline SVG or data URLs.
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

const YEAR_MS = 365 * 24 * 3600 * 1000;

const sending = new WeakSet<FastifyInstance>();

/** `reply.sendFile` (@fastify/static without routes of its own), once per Fastify instance. */
export function installFileSending(http: FastifyInstance): void {
  // The plugin loads when the instance boots, so its decorator cannot tell whether it was asked for.
  if (sending.has(http)) return;
  sending.add(http);
  void http.register(fastifyStatic, { serve: false });
}

/**
 * What the board page and the guest page share: their headers, their hashed assets (Vite names them
 * by content hash, so they never change under one name), and index.html with no caching, or a plain
 * 503 when the page was not built. Pages are served from an onRequest hook rather than routes, so the
 * access matrix (which reads the router's routes) is not asked to cover static files; a file that is
 * not there falls through to the not-found answer.
 */
export function pageServer(
  dir: string,
  label: string,
): {
  headers(reply: FastifyReply): void;
  asset(reply: FastifyReply, path: string): void;
  index(reply: FastifyReply): void;
} {
  const index = join(dir, 'index.html');
  return {
    headers(reply) {
      void reply.header('Content-Security-Policy', PAGE_CSP).header('X-Content-Type-Options', 'nosniff');
    },
    asset(reply, path) {
      void reply.sendFile(path, dir, { index: false, immutable: true, maxAge: YEAR_MS, dotfiles: 'ignore' });
    },
    index(reply) {
      if (!existsSync(index)) {
        void reply.code(503).type('text/plain').send(`The ${label} is not built: run \`npm run build\`.`);
        return;
      }
      void reply.header('Cache-Control', 'no-cache').sendFile('index.html', dir, { cacheControl: false });
    },
  };
}

/** The path of the request target, without its query (Express's `req.path`). */
export const pathOf = (req: FastifyRequest): string => {
  const q = req.url.indexOf('?');
  return q === -1 ? req.url : req.url.slice(0, q);
};

export const isRead = (req: FastifyRequest): boolean => req.method === 'GET' || req.method === 'HEAD';
export type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction };
