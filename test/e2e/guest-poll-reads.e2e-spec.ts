import request from 'supertest';
import type { TestApp } from '../support/test-app.js';
import { countedApp, type CountedApp } from '../support/counted-app.js';
import { describeWithServer } from '../support/test-database.js';
import type { Staff } from '../support/staff.js';
import { exchange, joined, party, queueSession, sandboxVenue, type JoinBody } from '../support/restaurant.js';

/**
 * The guest page asks where its party stands every 3 seconds, each open phone of every party in
 * the queue: its cost in statements is paid hundreds of times a minute on a busy night. Counted on
 * the wire, as keyed-reads.e2e-spec.ts does: the api talks to PostgreSQL through a relay that counts
 * each statement it asks to run.
 */
describeWithServer('counts statements on the wire to a PostgreSQL server')('a guest page’s poll', () => {
  let counted: CountedApp;
  let t: TestApp;
  let owner: Staff;

  beforeAll(async () => {
    counted = await countedApp();
    ({ t, owner } = counted);
  });
  afterAll(() => counted?.close());

  const fewest = (send: (i: number) => Promise<unknown>): Promise<number> => counted.fewest(send);

  /** A table venue with a party ahead, the party offered a table, and one whose offer was withdrawn. */
  async function night(): Promise<{ venueId: string; offered: JoinBody; withdrawn: JoinBody; waiting: JoinBody }> {
    const v = await sandboxVenue(t, owner, {
      clock: '2026-07-14T19:05:00-05:00',
      tables: [
        { label: 'T1', capacity: 4 },
        { label: 'T2', capacity: 4 },
      ],
    });
    const offered = await joined(t, owner, v.id, party(2));
    const withdrawn = await joined(t, owner, v.id, party(3));
    const waiting = await joined(t, owner, v.id, party(2));
    const offer = async (j: JoinBody, table: string): Promise<string> =>
      (
        (
          await request(t.baseUrl)
            .post(`/v1/venues/${v.id}/offers`)
            .set(owner.auth)
            .send({ entryId: j.entry.id, entryVersion: j.entry.version, tableIds: [v.tableIds[table]] })
            .expect(201)
        ).body as { offer: { id: string } }
      ).offer.id;
    await offer(offered, 'T1');
    const second = await offer(withdrawn, 'T2');
    await request(t.baseUrl).post(`/v1/venues/${v.id}/offers/${second}/withdraw`).set(owner.auth).send({}).expect(200);
    return { venueId: v.id, offered, withdrawn, waiting };
  }

  it('by the party’s session: two statements, the session’s and the whole answer’s', async () => {
    const n = await night();
    const counts: number[] = [];
    for (const j of [n.offered, n.withdrawn, n.waiting]) {
      const s = (await exchange(t, j.queueToken as string).expect(201)).body as { sessionToken: string };
      const first = await request(t.baseUrl).get('/v1/queue-session').set(queueSession(s.sessionToken)).expect(200);
      counts.push(
        await fewest(async () => {
          const again = await request(t.baseUrl).get('/v1/queue-session').set(queueSession(s.sessionToken)).expect(200);
          expect(again.body).toEqual(first.body);
        }),
      );
    }
    // Offered, its offer withdrawn, waiting.
    expect(counts).toEqual([2, 2, 2]);
  });

  it('by the queue token, unused: two statements, the token’s and the whole answer’s', async () => {
    const n = await night();
    const counts: number[] = [];
    for (const j of [n.offered, n.withdrawn, n.waiting]) {
      const poll = (): request.Test => request(t.baseUrl).post('/v1/queue-status').send({ token: j.queueToken }).expect(200);
      const first = await poll();
      counts.push(await fewest(async () => expect((await poll()).body).toEqual(first.body)));
    }
    expect(counts).toEqual([2, 2, 2]);
  });
});
