import { waitFor } from '../support/board-client.js';
import { API_MAIN, BuiltProcess, describeWithStack, freePort, privatePostgres, sleep } from '../support/built-stack.js';

/**
 * The api started before PostgreSQL (a restart of the whole host starts them in any order): it
 * waits for the server, saying so in one line per attempt. Nest's own retry logged "Unable to
 * connect to the database. Retrying (n)..." with the driver's stack at each attempt: ten stacks
 * before anything an operator could act on.
 */
describeWithStack('the api started before PostgreSQL', () => {
  let postgres: Awaited<ReturnType<typeof privatePostgres>>;
  let api: BuiltProcess | undefined;

  beforeAll(async () => {
    postgres = await privatePostgres();
    postgres.stop();
  }, 120_000);
  afterAll(async () => {
    await api?.stop();
    postgres?.remove();
  });

  it('waits for it with one plain line per attempt, no stack, and starts when it comes', async () => {
    const port = await freePort();
    api = new BuiltProcess(API_MAIN, { PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: postgres.url });
    await waitFor(() => api!.lines('the database is not reachable yet').length >= 2 || api!.ended, 30_000, 'two attempts');
    expect(api.ended).toBe(false);
    postgres.start();
    await api.started(/running at http/);
    const health = await fetch(`http://127.0.0.1:${port}/health`);
    expect(health.status).toBe(200);
    await sleep(200);
    const attempts = api.lines('the database is not reachable yet');
    expect(attempts.length).toBeGreaterThanOrEqual(2);
    expect(attempts[0]).toMatch(/ECONNREFUSED.*trying again in 3 s \(attempt 2 of 10\)/);
    expect(api.out).not.toContain('Unable to connect to the database');
    // No stack frames anywhere in the output (pino writes a stack as "\n    at …" inside a field).
    expect(api.out).not.toMatch(/\\n\s+at |^\s+at /m);
  }, 120_000);
});
