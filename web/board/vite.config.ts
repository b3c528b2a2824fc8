// The board page: Preact in TSX with no plugin (Oxc's automatic JSX runtime, imported from preact),
// built into dist/web/board, which the api serves at /board.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));
const api = process.env['HOSTBOARD_API'] ?? 'http://127.0.0.1:3000';

export default defineConfig({
  root: here,
  base: '/board/',
  // Vite 8 transforms with Oxc; its `esbuild` option is the deprecated spelling of the same thing.
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: fileURLToPath(new URL('../../dist/web/board', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    // No source maps in what is shipped; BOARD_SOURCEMAP=1 builds them for a local debugging session.
    sourcemap: process.env['BOARD_SOURCEMAP'] === '1',
  },
  // `npx vite --config web/board/vite.config.ts` beside a running api, for working on the page.
  server: { proxy: { '/v1': api, '/socket.io': { target: api, ws: true } } },
});
