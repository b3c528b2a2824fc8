import { plainToInstance, Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, Min, MinLength, validateSync } from 'class-validator';
import { IsUrlWithProtocol } from './is-url-with-protocol.validator.js';
import { nearMiss } from './near-miss.js';
import { failedChecks } from '../http/failed-checks.js';
import { ConfigError } from './config-error.js';
import { badOrigin, unknownProxyEntry } from './network-settings.js';

const toInt = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value.trim()) : value;

const emptyToUndefined = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;

/**
 * The environment, validated once at start-up. Field names are the variable names, so an error line
 * names exactly what the operator must fix.
 */
export class AppConfig {
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT = 3000;

  @IsOptional()
  @IsString()
  @MinLength(1)
  HOST = '127.0.0.1';

  /** Absent: the embedded PostgreSQL (PGlite) in HOSTBOARD_DATA_DIR. */
  @IsOptional()
  @Transform(emptyToUndefined)
  @IsUrlWithProtocol(['postgres:', 'postgresql:'])
  DATABASE_URL?: string;

  /** Connections each process may hold to DATABASE_URL at once. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(100)
  DATABASE_POOL_SIZE = 20;

  /**
   * Connections opened to DATABASE_URL at start and kept open while idle (the rest close after a
   * minute unused), by the api and by the worker each. A new connection costs 11–23 ms here
   * (PostgreSQL starts a backend) and its first statements run cold (6–10 ms instead of 0.6): a burst
   * that met a drained pool started on new connections (docs/benchmarks.md, ninth round). The
   * processes of one cluster split it (`clusterShare`): sixteen api processes keep one each, not
   * eight each (128 idle backends would refuse later processes at the default max_connections of 100).
   * At most DATABASE_POOL_SIZE; unset, it shrinks to a smaller pool.
   */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(100)
  DATABASE_POOL_WARM = 8;

  /** Folder of the embedded database; `memory://` keeps it in memory (tests). */
  @IsOptional()
  @IsString()
  @MinLength(1)
  HOSTBOARD_DATA_DIR = './.data';

  /**
   * A `memory://` database starts from this file (a PGlite dump of a migrated data directory) instead
   * of running initdb and every migration, which costs seconds each time; migrations newer than the
   * image still run. The test suite boots a hundred in-memory apps and makes one image per schema.
   */
  @IsOptional()
  @Transform(emptyToUndefined)
  @IsString()
  HOSTBOARD_MEMORY_IMAGE?: string;

  /** Absent: jobs run in-process on timers. */
  @IsOptional()
  @Transform(emptyToUndefined)
  @IsUrlWithProtocol(['redis:', 'rediss:'])
  REDIS_URL?: string;

  /** Redis key prefix of the job queue: processes sharing one prefix share their jobs. */
  @IsOptional()
  @IsString()
  @Matches(/^[A-Za-z0-9_-]{1,32}$/)
  JOBS_PREFIX = 'hostboard';

  @IsOptional()
  @Transform(emptyToUndefined)
  @IsString()
  BOOTSTRAP_OWNER_EMAIL?: string;

  @IsOptional()
  @Transform(emptyToUndefined)
  @IsString()
  @MinLength(8)
  BOOTSTRAP_OWNER_PASSWORD?: string;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(24 * 30)
  SESSION_TTL_HOURS = 12;

  /** Failed attempts allowed per address and per account in one window (login, token exchange). */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  AUTH_RATE_LIMIT = 10;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  AUTH_RATE_WINDOW_SECONDS = 60;

  /**
   * Failed logins allowed for one account across all addresses in a window before each further
   * attempt for it is slowed (never refused: its owner can still sign in from another address).
   */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  AUTH_ACCOUNT_LIMIT = 50;

  /** Failed logins allowed from one address (any account) in a window; then 429. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  AUTH_ADDRESS_LIMIT = 50;

  /** How long each login attempt for an account past AUTH_ACCOUNT_LIMIT waits before its password is checked. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(30_000)
  AUTH_ACCOUNT_SLOWDOWN_MS = 1000;

  /** Public queue joins allowed from one address per JOIN_RATE_WINDOW_SECONDS; then 429 with Retry-After. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  JOIN_RATE_PER_ADDRESS = 20;

  /** Public queue joins allowed into one venue per JOIN_RATE_WINDOW_SECONDS, from everyone together. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  JOIN_RATE_PER_VENUE = 300;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  JOIN_RATE_WINDOW_SECONDS = 600;

  /**
   * Invitation emails one member may have sent per INVITE_RATE_WINDOW_SECONDS, counted per account
   * and per address it invites from (accounts a venue creates share their creator's address); then 429.
   */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  INVITE_RATE_PER_INVITER = 30;

  /** Invitation emails one address receives per INVITE_RATE_WINDOW_SECONDS, from every venue together. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  INVITE_RATE_PER_RECIPIENT = 3;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  INVITE_RATE_WINDOW_SECONDS = 3600;

  /**
   * Which proxies may set the client address through X-Forwarded-For (express "trust proxy"):
   * empty or `none` (the default) uses the socket's address; a hop count (`1`), or a comma-separated
   * list of addresses, CIDR ranges and the names `loopback`, `linklocal`, `uniquelocal`.
   */
  @IsOptional()
  @IsString()
  @Matches(/^(|none|\d{1,2}|[0-9A-Za-z:./]+(\s*,\s*[0-9A-Za-z:./]+)*)$/, {
    message:
      'TRUST_PROXY must be none, a hop count, or a comma-separated list of addresses, CIDR ranges, loopback, linklocal, uniquelocal',
  })
  TRUST_PROXY = '';

  /**
   * Comma-separated origins allowed to open the board socket; empty: same-origin and non-browser
   * clients only. Each is compared as it stands with the browser's Origin header, so each must be an
   * origin as browsers send it (`https://host` or `https://host:port`); checked in loadConfig.
   */
  @IsOptional()
  @IsString()
  BOARD_ALLOWED_ORIGINS = '';

  @IsOptional()
  @Transform(emptyToUndefined)
  @IsUrlWithProtocol(['smtp:', 'smtps:'])
  SMTP_URL?: string;

  /** The sender of relayed emails. */
  @IsOptional()
  @IsString()
  SMTP_FROM = 'hostboard <no-reply@hostboard.local>';

  /**
   * A text provider with a Twilio-compatible REST API (e.g. https://api.twilio.com); absent: texts
   * are only recorded. Needs SMS_ACCOUNT_SID, SMS_AUTH_TOKEN and SMS_FROM.
   */
  @IsOptional()
  @Transform(emptyToUndefined)
  @IsUrlWithProtocol(['http:', 'https:'])
  SMS_URL?: string;

  @IsOptional()
  @Transform(emptyToUndefined)
  @Matches(/^[A-Za-z0-9_-]{1,64}$/)
  SMS_ACCOUNT_SID?: string;

  @IsOptional()
  @Transform(emptyToUndefined)
  @IsString()
  SMS_AUTH_TOKEN?: string;

  /**
   * The sender of relayed texts, the provider's `From`: an E.164 number (`+13125550100`), a short code
   * (3 to 8 digits) or an alphanumeric sender id (up to 11 letters, digits and spaces, at least one
   * letter, as providers allow where sender ids are permitted).
   */
  @IsOptional()
  @Transform(emptyToUndefined)
  @IsString()
  @Matches(/^(\+[1-9]\d{6,14}|\d{3,8}|(?=[A-Za-z0-9 ]*[A-Za-z])[A-Za-z0-9][A-Za-z0-9 ]{0,10})$/, {
    message:
      'SMS_FROM must be an E.164 number (+, country code and number, no spaces: +13125550100), a short code (3 to 8 digits) or an alphanumeric sender id (1 to 11 letters, digits and spaces, with a letter)',
  })
  SMS_FROM?: string;

  /**
   * The relay hands a provider only messages younger than this: a worker started with a provider
   * after running without one must not send every message ever recorded ("your table is ready …
   * by 6:05 PM" hours later). Older ones stay recorded, with the reason.
   */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1440)
  OUTBOX_MAX_AGE_MINUTES = 15;

  /** The origin guests reach the api on (e.g. https://hostboard.example.com): the queue link in messages and on the token card. */
  @IsOptional()
  @Transform(emptyToUndefined)
  @IsUrlWithProtocol(['http:', 'https:'])
  PUBLIC_URL?: string;

  /**
   * `/metrics` answers only a request that sends this token (`Authorization: Bearer …` or
   * `X-Metrics-Token: …`); unset, `/metrics` is not served at all.
   */
  @IsOptional()
  @Transform(emptyToUndefined)
  @IsString()
  @MinLength(16, { message: 'METRICS_TOKEN must be at least 16 characters (a random string)' })
  METRICS_TOKEN?: string;

  /**
   * Venues a worker sweeps at once when offers fall due together (each sweep is a transaction under
   * the venue's lock). Past the database's cores, more only queue there: 4 suits two cores.
   */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(64)
  EXPIRY_SWEEPS_AT_ONCE = 4;

  /**
   * How long a worker statement waits for a row lock (PostgreSQL's lock_timeout on the worker's
   * connections) before it fails and its job retries. A venue's lock is held for milliseconds by a
   * command; a session stuck while holding one would otherwise keep a sweep, and one of the
   * EXPIRY_SWEEPS_AT_ONCE slots, waiting for as long as it lasts, delaying every other venue's expiries.
   */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(600_000)
  WORKER_LOCK_TIMEOUT_MS = 10_000;

  /**
   * The worker serves `/metrics` on this port (HOST's address), to a scrape that sends METRICS_TOKEN
   * as the api's does; unset, the worker serves nothing. With several worker processes the cluster's
   * primary serves it, for all of them.
   */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(65535)
  WORKER_METRICS_PORT?: number;

  /**
   * The worker touches this file every 5 s while it is healthy: its safety sweep reaches the database
   * (a container health check reads its age; older than a minute is unhealthy).
   */
  @IsOptional()
  @Transform(emptyToUndefined)
  @IsString()
  WORKER_HEARTBEAT_FILE?: string;

  @IsOptional()
  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL = 'info';

  @IsOptional()
  @IsIn(['development', 'production', 'test'])
  NODE_ENV = 'development';

  /**
   * How hard password hashes are to compute: `standard` is argon2id at 19 MiB and two passes (OWASP's
   * minimum); `test` (1 MiB, one pass, about 1 ms) only with NODE_ENV=test, for suites that create and
   * sign in hundreds of accounts. A hash records its own parameters, so either verifies the other's.
   */
  @IsOptional()
  @IsIn(['standard', 'test'])
  PASSWORD_HASH_COST: 'standard' | 'test' = 'standard';

  /**
   * How many api processes `npm start` runs on one port (node:cluster). Absent: one per core when both
   * DATABASE_URL and REDIS_URL are set (the Redis adapter carries board events between them), else one.
   */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(64)
  API_PROCESSES?: number;

  /** Worker processes of `npm run start:worker` (node:cluster); default one per core there, else 1. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(64)
  WORKER_PROCESSES?: number;

  /** BOARD_ALLOWED_ORIGINS as a list (entries trimmed, empty ones dropped). */
  get boardAllowedOrigins(): string[] {
    return this.BOARD_ALLOWED_ORIGINS.split(',')
      .map((o) => o.trim())
      .filter(Boolean);
  }

  /** The express "trust proxy" value TRUST_PROXY stands for (false: trust no proxy). */
  get trustProxy(): boolean | number | string[] {
    const v = this.TRUST_PROXY.trim();
    if (v === '' || v === 'none') return false;
    if (/^\d+$/.test(v)) return Number(v);
    return v.split(',').map((x) => x.trim());
  }

  get embedded(): boolean {
    return this.DATABASE_URL === undefined;
  }
}

/** Validates the environment; throws ConfigError naming the first bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): AppConfig {
  const known = Object.keys(new AppConfig());
  const picked: Record<string, string> = {};
  for (const key of known) {
    const value = env[key];
    if (value !== undefined) picked[key] = value;
  }
  const misspelt = nearMiss(env, known);
  if (misspelt) {
    throw new ConfigError(
      `Configuration error: ${misspelt.given} is not a setting: did you mean ${misspelt.meant}? Rename it (or remove it if it is another program's)`,
    );
  }
  const config = plainToInstance(AppConfig, picked);
  const [first] = validateSync(config, { forbidUnknownValues: true });
  if (first) {
    const reason = failedChecks(first.constraints)[0] ?? 'is invalid';
    throw new ConfigError(`Configuration error: ${reason}`);
  }
  const proxy = unknownProxyEntry(config.TRUST_PROXY);
  if (proxy !== undefined) {
    // Fastify would refuse it at start-up with a stack trace from its address parser.
    throw new ConfigError(
      `Configuration error: TRUST_PROXY "${proxy}" is not an address, a CIDR range or one of loopback, linklocal, uniquelocal (or set a hop count such as 1, or none)`,
    );
  }
  const origin = badOrigin(config.boardAllowedOrigins);
  if (origin !== undefined) throw new ConfigError(`Configuration error: BOARD_ALLOWED_ORIGINS ${origin}`);
  if (config.PASSWORD_HASH_COST === 'test' && config.NODE_ENV !== 'test') {
    throw new ConfigError(
      'Configuration error: PASSWORD_HASH_COST=test is only for NODE_ENV=test (it makes password hashes cheap to guess)',
    );
  }
  if ((config.BOOTSTRAP_OWNER_EMAIL === undefined) !== (config.BOOTSTRAP_OWNER_PASSWORD === undefined)) {
    throw new ConfigError('Configuration error: set both BOOTSTRAP_OWNER_EMAIL and BOOTSTRAP_OWNER_PASSWORD, or neither');
  }
  if (config.DATABASE_POOL_WARM > config.DATABASE_POOL_SIZE) {
    if (picked['DATABASE_POOL_WARM'] !== undefined) {
      throw new ConfigError(
        `Configuration error: DATABASE_POOL_WARM (${config.DATABASE_POOL_WARM}) is more than DATABASE_POOL_SIZE (${config.DATABASE_POOL_SIZE})`,
      );
    }
    // The default never refuses a smaller pool the operator chose: it shrinks to fit.
    config.DATABASE_POOL_WARM = config.DATABASE_POOL_SIZE;
  }
  if (config.embedded && (config.API_PROCESSES ?? 1) > 1) {
    throw new ConfigError(
      'Configuration error: API_PROCESSES above 1 needs DATABASE_URL and REDIS_URL (the embedded database belongs to one process)',
    );
  }
  if (!config.REDIS_URL && (config.API_PROCESSES ?? 1) > 1) {
    throw new ConfigError(
      'Configuration error: API_PROCESSES above 1 needs REDIS_URL (board events travel between processes through Redis)',
    );
  }
  if (config.WORKER_METRICS_PORT !== undefined && config.METRICS_TOKEN === undefined) {
    throw new ConfigError('Configuration error: WORKER_METRICS_PORT needs METRICS_TOKEN (a scrape must send it)');
  }
  if (config.SMS_URL !== undefined) {
    const missing = (['SMS_ACCOUNT_SID', 'SMS_AUTH_TOKEN', 'SMS_FROM'] as const).filter((k) => config[k] === undefined);
    if (missing.length > 0) throw new ConfigError(`Configuration error: SMS_URL needs ${missing.join(', ')} too`);
  }
  return config;
}

export { ConfigError } from './config-error.js';
export { badOrigin, unknownProxyEntry } from './network-settings.js';
export { assertProductionBootstrap, bootstrapPasswordWeakness } from './bootstrap-password.js';
