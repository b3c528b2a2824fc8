// The guest's queue page: Preact in TSX like the board, built into dist/web/guest, served by the
// api at /q/ (opened as /q/#<queueToken>).
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));
const api = process.env['HOSTBOARD_API'] ?? 'http://127.0.0.1:3000';

export default defineConfig({
  root: here,
  base: '/q/',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: fileURLToPath(new URL('../../dist/web/guest', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: process.env['BOARD_SOURCEMAP'] === '1',
  },
  // `npx vite --config web/guest/vite.config.ts` beside a running api, for working on the page.
  server: { proxy: { '/v1': api } },
});
