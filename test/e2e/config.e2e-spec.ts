import { spawnSync } from 'node:child_process';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { resolve } from 'node:path';
import { assertProductionBootstrap, ConfigError, loadConfig } from '@hostboard/core';
import { memoryImage } from '../support/memory-image.js';

const API_MAIN = resolve('dist/apps/api/src/main.js');
const WORKER_MAIN = resolve('dist/apps/worker/src/main.js');
const CLI_MAIN = resolve('dist/apps/cli/src/main.js');

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

  it.each([
    [{ PORT: 'eighty' }, 'Configuration error: PORT must be an integer number'],
    [{ DATABASE_POOL_WARM: 'lots' }, 'Configuration error: DATABASE_POOL_WARM must be an integer number'],
    [{ PORT: '70000' }, 'Configuration error: PORT must not be greater than 65535'],
    [{ EXPIRY_SWEEPS_AT_ONCE: '0' }, 'Configuration error: EXPIRY_SWEEPS_AT_ONCE must not be less than 1'],
  ])('names what is wrong with a number setting: %j', (env, line) => {
    expect(() => loadConfig(env)).toThrow(line);
  });

  // A misspelt DATABASE_URL started the app on the embedded database, with nothing said.
  it('stops start-up when a variable is a letter or two off an unset setting, naming both', () => {
    const run = spawnSync(process.execPath, [API_MAIN], {
      env: { PATH: process.env['PATH'], DATABASE_UR: 'postgres://127.0.0.1:5432/hostboard', PORT: '0' },
      encoding: 'utf8',
      timeout: 30000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr.trim().split('\n')).toEqual([
      "Configuration error: DATABASE_UR is not a setting: did you mean DATABASE_URL? Rename it (or remove it if it is another program's)",
    ]);
    expect(run.stdout).toBe('');
  });
  it.each([
    [{ database_url: 'postgres://h/db' }, 'database_url', 'DATABASE_URL'],
    [{ REDIS_ULR: 'redis://h' }, 'REDIS_ULR', 'REDIS_URL'],
    [{ DATABSE_URL: 'postgres://h/db' }, 'DATABSE_URL', 'DATABASE_URL'],
    [{ SMTP_URI: 'smtp://h' }, 'SMTP_URI', 'SMTP_URL'],
    [{ BOOTSTRAP_OWNER_EMIAL: 'a@b.c', BOOTSTRAP_OWNER_PASSWORD: 'x' }, 'BOOTSTRAP_OWNER_EMIAL', 'BOOTSTRAP_OWNER_EMAIL'],
  ])('names the setting %j was meant to be', (env, given, meant) => {
    expect(() => loadConfig(env)).toThrow(`Configuration error: ${given} is not a setting: did you mean ${meant}?`);
  });
  it("leaves other programs' variables alone", () => {
    const env = {
      HOME: '/root',
      PWD: '/srv',
      HOSTNAME: 'box',
      LANG: 'C.UTF-8',
      NODE_OPTIONS: '--max-old-space-size=512',
      PGHOST: 'db',
      PGPORT: '5432',
      REDIS_HOST: 'cache',
      REDIS_PORT: '6379',
      DATABASE_HOST: 'db',
      SMTP_SERVER: 'mail',
      HTTP_PROXY: 'http://proxy:3128',
    };
    expect(loadConfig(env).embedded).toBe(true);
    // A set setting is not "missing" however close another variable is.
    expect(loadConfig({ ...env, DATABASE_URL: 'postgres://h/db', DATABASE_UR: 'x' }).DATABASE_URL).toBe('postgres://h/db');
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

  it('in production, the api refuses to start with a missing or weak first-owner password, naming it in one line', () => {
    const run = spawnSync(process.execPath, [API_MAIN], {
      env: { PATH: process.env['PATH'], NODE_ENV: 'production', PORT: '0', HOSTBOARD_DATA_DIR: 'memory://' },
      encoding: 'utf8',
      timeout: 30000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr.trim().split('\n')).toEqual([
      'Configuration error: BOOTSTRAP_OWNER_PASSWORD is missing: set BOOTSTRAP_OWNER_EMAIL and a strong BOOTSTRAP_OWNER_PASSWORD (NODE_ENV=production)',
    ]);
    expect(run.stdout).toBe('');
  });

  it.each([
    ['short-pw-1', /at least 12 characters/],
    ['change-me-now', /well-known default/],
    ['Password123456!', /well-known default/],
    ['maria.lopez-2026', /contains the email/],
    ['aaaaaaaaaaaaabbbb', /more different characters/],
  ])('in production refuses the bootstrap password %j', (password, pattern) => {
    const config = loadConfig({
      NODE_ENV: 'production',
      BOOTSTRAP_OWNER_EMAIL: 'maria.lopez@example.com',
      BOOTSTRAP_OWNER_PASSWORD: password,
    });
    expect(() => assertProductionBootstrap(config)).toThrow(ConfigError);
    expect(() => assertProductionBootstrap(config)).toThrow(pattern);
  });

  it('accepts a strong bootstrap password in production, and any (or none) outside it', () => {
    const strong = { BOOTSTRAP_OWNER_EMAIL: 'maria.lopez@example.com', BOOTSTRAP_OWNER_PASSWORD: 'quiet-harbour-7314' };
    expect(() => assertProductionBootstrap(loadConfig({ NODE_ENV: 'production', ...strong }))).not.toThrow();
    expect(() => assertProductionBootstrap(loadConfig({ NODE_ENV: 'development' }))).not.toThrow();
    expect(() =>
      assertProductionBootstrap(loadConfig({ BOOTSTRAP_OWNER_EMAIL: 'a@b.c', BOOTSTRAP_OWNER_PASSWORD: 'change-me-now' })),
    ).not.toThrow();
  });

  // The text provider's From, as a provider takes it: a number with its country code, a short code,
  // or a sender id. A number without its + (or with spaces) was accepted and refused by the provider
  // at every text.
  it.each(['+13125550100', '+447700900123', '12345', 'Hostboard', 'Cafe 22', 'A'])('accepts SMS_FROM %j', (from) => {
    expect(loadConfig({ SMS_FROM: from }).SMS_FROM).toBe(from);
  });
  it.each([
    '13125550100',
    '+1 312 555 0100',
    '(312) 555-0100',
    '+0123456789',
    'Hostboard Cafe',
    '12',
    'Café',
    '+1312555010012345',
  ])('refuses SMS_FROM %j in one line naming it', (from) => {
    expect(() => loadConfig({ SMS_FROM: from })).toThrow(
      'Configuration error: SMS_FROM must be an E.164 number (+, country code and number, no spaces: +13125550100), a short code (3 to 8 digits) or an alphanumeric sender id (1 to 11 letters, digits and spaces, with a letter)',
    );
  });

  // Each entry is compared as it stands with the browser's Origin header: one that is not exactly an
  // origin (a trailing slash, a path, upper case, a default port) was accepted and never matched.
  it.each([
    'https://board.example.com',
    'http://10.0.0.5:8080',
    'https://a.example.com, http://localhost:5173',
    ' https://x.example ,',
  ])('accepts BOARD_ALLOWED_ORIGINS %j', (origins) => {
    expect(loadConfig({ BOARD_ALLOWED_ORIGINS: origins }).BOARD_ALLOWED_ORIGINS).toBe(origins);
  });
  it.each([
    [
      'https://board.example.com/',
      'Configuration error: BOARD_ALLOWED_ORIGINS "https://board.example.com/" is not an origin as a browser sends it: write "https://board.example.com"',
    ],
    [
      'https://ok.example, https://Board.Example.com',
      'Configuration error: BOARD_ALLOWED_ORIGINS "https://Board.Example.com" is not an origin as a browser sends it: write "https://board.example.com"',
    ],
    [
      'https://board.example.com:443',
      'Configuration error: BOARD_ALLOWED_ORIGINS "https://board.example.com:443" is not an origin as a browser sends it: write "https://board.example.com"',
    ],
    ['https://board.example.com/board', /write "https:\/\/board.example.com"/],
    [
      'board.example.com',
      /^Configuration error: BOARD_ALLOWED_ORIGINS "board.example.com" is not an origin: must be origins like https:\/\/board.example.com/,
    ],
    ['*', /BOARD_ALLOWED_ORIGINS "\*" is not an origin/],
    ['ftp://files.example.com', /BOARD_ALLOWED_ORIGINS "ftp:\/\/files.example.com" is not an http or https origin/],
    [
      'https://user:s3cret@board.example.com',
      /^(?!.*s3cret)Configuration error: BOARD_ALLOWED_ORIGINS has an entry with a user or password/,
    ],
  ])('refuses BOARD_ALLOWED_ORIGINS %j in one line naming it', (origins, line) => {
    expect(() => loadConfig({ BOARD_ALLOWED_ORIGINS: origins })).toThrow(ConfigError);
    expect(() => loadConfig({ BOARD_ALLOWED_ORIGINS: origins })).toThrow(line);
  });

  it.each([
    [API_MAIN, { SMS_FROM: '1 312 555 0100' }, /^Configuration error: SMS_FROM must be an E.164 number/],
    [
      WORKER_MAIN,
      { SMS_FROM: '1 312 555 0100', REDIS_URL: 'redis://127.0.0.1:1' },
      /^Configuration error: SMS_FROM must be an E.164 number/,
    ],
    [
      API_MAIN,
      { BOARD_ALLOWED_ORIGINS: 'https://board.example.com/' },
      /^Configuration error: BOARD_ALLOWED_ORIGINS "https:\/\/board.example.com\/"/,
    ],
  ])('%s stops at start with one line for %j', (main, env, line) => {
    const run = spawnSync(process.execPath, [main], {
      env: { PATH: process.env['PATH'], PORT: '0', HOSTBOARD_DATA_DIR: 'memory://', ...env },
      encoding: 'utf8',
      timeout: 30000,
    });
    expect(run.status).toBe(1);
    const lines = run.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(line);
    expect(run.stdout).toBe('');
  });

  it('refuses a METRICS_TOKEN shorter than 16 characters', () => {
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN must be at least 16 characters/);
  });

  it('the worker without REDIS_URL says so in one line, not a stack trace', () => {
    const run = spawnSync(process.execPath, [WORKER_MAIN], {
      env: { PATH: process.env['PATH'], DATABASE_URL: 'postgres://127.0.0.1:5432/postgres' },
      encoding: 'utf8',
      timeout: 30000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr.trim().split('\n')).toEqual([
      'the worker consumes BullMQ jobs: set REDIS_URL (without Redis, `npm start` runs jobs in-process)',
    ]);
  });

  it('a DATABASE_URL naming a database that does not exist stops start-up at once, in one line naming it', () => {
    const run = spawnSync(process.execPath, [API_MAIN], {
      env: {
        PATH: process.env['PATH'],
        DATABASE_URL: 'postgres://nobody:secret-pw@127.0.0.1:5432/hostboard_no_such_database',
        PORT: '0',
        LOG_LEVEL: 'fatal',
      },
      encoding: 'utf8',
      timeout: 30000,
    });
    expect(run.status).toBe(1);
    const lines = run.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^PostgreSQL refused DATABASE_URL \(127\.0\.0\.1:5432\/hostboard_no_such_database\): .+\. Check the database name, user and password in the URL\.$/,
    );
    expect(run.stderr).not.toContain('secret-pw');
  });

  it("the CLI takes the first owner's password from OWNER_PASSWORD, off the command line", async () => {
    const image = await memoryImage();
    const run = (env: Record<string, string>) =>
      spawnSync(process.execPath, [CLI_MAIN, 'create-owner', '--email', 'first@example.test'], {
        env: { PATH: process.env['PATH'], HOSTBOARD_DATA_DIR: 'memory://', HOSTBOARD_MEMORY_IMAGE: image, ...env },
        encoding: 'utf8',
        timeout: 60000,
      });
    const created = run({ OWNER_PASSWORD: 'a long password from the environment' });
    expect({ status: created.status, out: created.stdout }).toEqual({
      status: 0,
      out: 'created owner first@example.test; sign in and create a venue\n',
    });
    // Neither on the command line nor in the environment: the usage, not an owner without a password.
    const missing = run({});
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('OWNER_PASSWORD');
  });

  it.each([
    ['true', /^Configuration error: TRUST_PROXY "true" /],
    ['yes', /^Configuration error: TRUST_PROXY "yes" /],
    ['10.0.0.0/33', /^Configuration error: TRUST_PROXY "10.0.0.0\/33" /],
    ['loopback, 10.0.0.300', /^Configuration error: TRUST_PROXY "10.0.0.300" /],
  ])('a TRUST_PROXY no proxy could match (%j) stops the api in one line naming it, not a stack trace', (value, line) => {
    const run = spawnSync(process.execPath, [API_MAIN], {
      env: { PATH: process.env['PATH'], TRUST_PROXY: value, PORT: '0', HOSTBOARD_DATA_DIR: 'memory://', LOG_LEVEL: 'fatal' },
      encoding: 'utf8',
      timeout: 60000,
    });
    expect(run.status).toBe(1);
    const lines = run.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(line);
  });

  it.each([
    '',
    'none',
    '1',
    'loopback',
    'uniquelocal',
    'linklocal',
    '10.0.0.0/8, 172.16.0.0/12',
    '127.0.0.1',
    '::1',
    'fc00::/7',
    '10.0.0.0/255.0.0.0',
  ])('accepts TRUST_PROXY %j', (value) => {
    expect(() => loadConfig({ TRUST_PROXY: value })).not.toThrow();
  });

  it('a HOST that is not an address of this machine stops the api in one line naming it', () => {
    const run = spawnSync(process.execPath, [API_MAIN], {
      env: { PATH: process.env['PATH'], HOST: '203.0.113.7', PORT: '0', HOSTBOARD_DATA_DIR: 'memory://', LOG_LEVEL: 'fatal' },
      encoding: 'utf8',
      timeout: 60000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr.trim().split('\n')).toEqual([
      'HOST 203.0.113.7 is not an address of this machine (listen EADDRNOTAVAIL): set HOST to one of its addresses, 127.0.0.1 or 0.0.0.0.',
    ]);
  });

  it('a port already taken by another program is named in one line', async () => {
    const taken: Server = createServer();
    await new Promise<void>((done) => taken.listen(0, '127.0.0.1', done));
    const port = (taken.address() as AddressInfo).port;
    try {
      const run = spawnSync(process.execPath, [API_MAIN], {
        env: {
          PATH: process.env['PATH'],
          PORT: String(port),
          HOST: '127.0.0.1',
          HOSTBOARD_DATA_DIR: 'memory://',
          LOG_LEVEL: 'fatal',
        },
        encoding: 'utf8',
        timeout: 60000,
      });
      expect(run.status).toBe(1);
      expect(run.stderr.trim().split('\n')).toEqual([
        `Port ${port} on 127.0.0.1 is already in use by another program: stop it, or set PORT (or HOST) to a free one.`,
      ]);
    } finally {
      await new Promise((done) => taken.close(done));
    }
  });
});
