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
 * What the board page and the guest page share: their hashed assets (Vite names them by content
 * hash, so they never change under one name), and index.html with no caching, or a plain 503 when
 * the page was not built. Pages are served from an onRequest hook rather than routes, so the access
 * matrix (which reads the router's routes) is not asked to cover static files; a file that is not
 * there falls through to the not-found answer. Their security headers, the CSP included, are the
 * api's own, set on every answer by security-headers.ts: a second copy kept here had drifted from
 * it (it lacked object-src 'none').
 */
export function pageServer(
  dir: string,
  label: string,
): {
  asset(reply: FastifyReply, path: string): void;
  index(reply: FastifyReply): void;
} {
  const index = join(dir, 'index.html');
  return {
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
