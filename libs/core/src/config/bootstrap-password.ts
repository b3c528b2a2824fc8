import type { AppConfig } from './app-config.js';
import { ConfigError } from './config-error.js';

/**
 * The api in production (NODE_ENV=production) starts only with a strong first-owner password: no
 * default credentials anywhere. The worker and the CLI never create accounts, so they do not ask.
 */
export function assertProductionBootstrap(config: AppConfig): void {
  if (config.NODE_ENV !== 'production') return;
  const weakness = bootstrapPasswordWeakness(config.BOOTSTRAP_OWNER_PASSWORD, config.BOOTSTRAP_OWNER_EMAIL);
  if (weakness) throw new ConfigError(`Configuration error: BOOTSTRAP_OWNER_PASSWORD ${weakness} (NODE_ENV=production)`);
}

/** Passwords that example files and quick starts suggest; production refuses them. */
const KNOWN_DEFAULTS = [
  'change-me-now',
  'changeme',
  'password',
  'hostboard',
  'admin',
  'secret',
  'letmein',
  'owner',
  'qwerty',
  '123456',
];

/**
 * Why a production bootstrap password is refused, or undefined. In production there is no demo
 * owner and no default: the first owner's password must be given, at least 12 characters, not a
 * known default, not containing the email's name, and of at least 5 different characters.
 */
export function bootstrapPasswordWeakness(password: string | undefined, email: string | undefined): string | undefined {
  if (password === undefined) return 'is missing: set BOOTSTRAP_OWNER_EMAIL and a strong BOOTSTRAP_OWNER_PASSWORD';
  if (password.length < 12) return 'is too weak: use at least 12 characters';
  const lower = password.toLowerCase();
  // "Password123!" is "password" with decorations.
  const letters = lower.replace(/[^a-z-]/g, '').replace(/^-+|-+$/g, '');
  if (KNOWN_DEFAULTS.includes(letters) || KNOWN_DEFAULTS.includes(lower)) return 'is too weak: it is a well-known default';
  const local = email?.toLowerCase().split('@')[0] ?? '';
  if (local.length >= 4 && lower.includes(local)) return 'is too weak: it contains the email';
  if (new Set(password).size < 5) return 'is too weak: use more different characters';
  return undefined;
}
