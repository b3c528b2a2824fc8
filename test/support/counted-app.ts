import { wireCounter } from '../../bench/lib/wire-counter.mjs';
import { startApp, type TestApp } from './test-app.js';
import { freshDatabase } from './test-database.js';
import { signUp, type Staff } from './staff.js';

/** An app whose statements to PostgreSQL are counted on the wire, with an owner signed up. */
export interface CountedApp {
  t: TestApp;
  owner: Staff;
  /** The fewest statements `send` cost over five tries (a background statement only adds). */
  fewest(send: (i: number) => Promise<unknown>): Promise<number>;
  close(): Promise<void>;
}

/**
 * The api talks to a fresh database through a relay that counts each statement it asks to run
 * (bench/lib/wire-counter.mjs): what a request costs in round trips, measured where it is paid.
 */
export async function countedApp(): Promise<CountedApp> {
  const db = await freshDatabase();
  const url = new URL(db.url as string);
  const relay = await wireCounter(0, { host: url.hostname, port: Number(url.port || 5432) });
  url.port = String(relay.port);
  const t = await startApp({ db, env: { DATABASE_URL: url.toString() } });
  const owner = await signUp(t, 'owner');
  return {
    t,
    owner,
    async fewest(send) {
      let least = Infinity;
      for (let i = 0; i < 5; i++) {
        const before = relay.count.statements;
        await send(i);
        least = Math.min(least, relay.count.statements - before);
      }
      return least;
    },
    async close() {
      await t.close();
      await relay.close();
      await db.drop();
    },
  };
}
