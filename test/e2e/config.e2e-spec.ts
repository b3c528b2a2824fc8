import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { ConfigError, loadConfig } from '@hostboard/core';

const API_MAIN = resolve('dist/apps/api/src/main.js');

describe('configuration', () => {
  it('stops start-up on a malformed DATABASE_URL with one clear line', () => {
    const run = spawnSync(process.execPath, [API_MAIN], {
      env: { PATH: process.env['PATH'], DATABASE_URL: 'postgres//oops', PORT: '0' },
      encoding: 'utf8',
      timeout: 30000,
    });
    expect(run.status).toBe(1);
    const lines = run.stderr.trim().split('\n');
    expect(lines).toEqual([
      'Configuration error: DATABASE_URL must be a URL like postgres://host:port/… (it could not be parsed as one)',
    ]);
    expect(run.stdout).toBe('');
  });

  it.each([
    [{ DATABASE_URL: 'mysql://localhost/db' }, /DATABASE_URL/],
    [{ REDIS_URL: 'localhost:6379' }, /REDIS_URL/],
    [{ PORT: 'eighty' }, /PORT/],
    [{ PORT: '70000' }, /PORT/],
    [{ BOOTSTRAP_OWNER_EMAIL: 'a@b.c' }, /BOOTSTRAP_OWNER_PASSWORD/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL/],
  ])('refuses %j', (env, pattern) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(pattern);
  });

  it('never echoes a password from a URL', () => {
    expect(() => loadConfig({ DATABASE_URL: 'postgres://u:s3cret@' })).toThrow(/^(?!.*s3cret).*$/);
  });

  it('accepts no configuration at all: the embedded default', () => {
    const config = loadConfig({});
    expect(config.embedded).toBe(true);
    expect(config.PORT).toBe(3000);
    expect(config.HOSTBOARD_DATA_DIR).toBe('./.data');
  });
});
