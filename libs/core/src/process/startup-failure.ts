/** PostgreSQL's own refusals at connect: no such database, no such role, wrong password. Retrying changes none. */
export const DATABASE_REFUSALS = ['3D000', '28000', '28P01'];

/**
 * One line for a start-up that failed because the database in DATABASE_URL cannot be used: the
 * server is not there (refused, no such host, timed out), the database does not exist, or the role
 * or password is refused. These are configuration mistakes an operator fixes in one place, so the
 * line names the variable and where it points (never its password), instead of a stack trace after
 * the retries. Anything else answers null: the caller prints the full error.
 */
export function databaseStartupFailure(err: unknown, databaseUrl: string | undefined): string | null {
  if (!databaseUrl) return null;
  const e = err as { code?: unknown; message?: unknown } | null;
  const code = typeof e?.code === 'string' ? e.code : '';
  const unreachable = ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ECONNRESET'].includes(code);
  const refused = DATABASE_REFUSALS.includes(code);
  if (!unreachable && !refused) return null;
  let where = 'the URL given';
  try {
    const u = new URL(databaseUrl);
    where = `${u.hostname}:${u.port || '5432'}${u.pathname}`;
  } catch {
    // Validated at start already; keep the generic words.
  }
  const why = typeof e?.message === 'string' ? e.message : code;
  return unreachable
    ? `Cannot reach PostgreSQL at DATABASE_URL (${where}): ${why}. Check the URL and that the server is running.`
    : `PostgreSQL refused DATABASE_URL (${where}): ${why}. Check the database name, user and password in the URL.`;
}
