import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
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

/**
 * What the board page and the guest page share: their headers, their hashed assets (Vite names them
 * by content hash, so they never change under one name), and index.html with no caching, or a plain
 * 503 when the page was not built. Pages are served by middleware rather than routes, so the access
 * matrix (which reads the router's routes) is not asked to cover static files.
 */
export function pageServer(
  dir: string,
  label: string,
): {
  headers(res: Response): void;
  assets: RequestHandler;
  index(res: Response): void;
} {
  const index = join(dir, 'index.html');
  return {
    headers(res) {
      res.setHeader('Content-Security-Policy', PAGE_CSP);
      res.setHeader('X-Content-Type-Options', 'nosniff');
    },
    assets: express.static(dir, { index: false, redirect: false, fallthrough: true, immutable: true, maxAge: '365d' }),
    index(res) {
      if (!existsSync(index)) {
        res.status(503).type('text/plain').send(`The ${label} is not built: run \`npm run build\`.`);
        return;
      }
      res.setHeader('Cache-Control', 'no-cache');
      res.sendFile(index);
    },
  };
}

export const isRead = (req: Request): boolean => req.method === 'GET' || req.method === 'HEAD';
export type { NextFunction, Request, Response };
