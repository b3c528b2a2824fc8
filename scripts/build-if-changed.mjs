#!/usr/bin/env node
// Builds only when a source that goes into dist/ changed since the last build: a second `npm start` of
// an unchanged checkout then boots in seconds instead of rebuilding four apps and the pages (40–64 s).
// The stamp is a hash of the files' contents, not their times, so a fresh clone or a `git checkout`
// that leaves the sources unchanged still counts as unchanged, and any edit counts as a change.
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const stampFile = join(root, 'dist', '.build-stamp');
const inputs = ['apps', 'libs', 'web', 'package.json', 'package-lock.json', 'tsconfig.json', 'nest-cli.json'];
const outputs = [
  'dist/apps/api/src/main.js',
  'dist/apps/worker/src/main.js',
  'dist/apps/cli/src/main.js',
  'dist/apps/ledger/src/main.js',
  'dist/apps/replay/src/main.js',
];
const skipped = new Set(['node_modules', 'dist', '.data']);

function walk(path, files) {
  const stat = statSync(path);
  if (stat.isDirectory()) {
    for (const name of readdirSync(path).sort()) if (!skipped.has(name)) walk(join(path, name), files);
  } else if (!/\.(spec|e2e-spec)\.ts$/.test(path)) {
    files.push(path);
  }
  return files;
}

function sourceHash() {
  const hash = createHash('sha256');
  for (const input of inputs) {
    const path = join(root, input);
    if (!existsSync(path)) continue;
    for (const file of walk(path, [])) {
      hash.update(relative(root, file)).update('\0').update(readFileSync(file)).update('\0');
    }
  }
  return hash.digest('hex');
}

const current = sourceHash();
const built = existsSync(stampFile) ? readFileSync(stampFile, 'utf8').trim() : '';
const complete = outputs.every((output) => existsSync(join(root, output)));
if (built === current && complete && process.env['FORCE_BUILD'] !== '1') {
  console.log('build: up to date (no source changed since the last build)');
  process.exit(0);
}
const result = spawnSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
if (result.status !== 0) process.exit(result.status ?? 1);
writeFileSync(stampFile, `${current}\n`);
