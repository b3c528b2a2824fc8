import request from 'supertest';
import { joined, sandboxVenue, type Sandbox } from '../support/restaurant.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { signUp, type Staff } from '../support/staff.js';

/**
 * `reach` says whether the venue's messages reach a party. A workshop's seat pool sends its groups
 * no message at all (docs/board.md, "No messages"), so no group there is reached or unreached: the
 * board and queue reads carry no `reach` for them. Before, an email-only group at a venue that sends
 * texts (a text provider configured) read `reach: "none"`, as if it were a party the venue could not
 * reach. A restaurant's party still reads it. A 17-seat workshop in Lisbon time, 7-minute holds.
 */
interface Row {
  id: string;
  reach?: string;
}

describe('reach at a seat pool', () => {
  let t: TestApp;
  let owner: Staff;
  let pool: Sandbox;
  let restaurant: Sandbox;

  beforeAll(async () => {
    // A text provider is configured (nothing listens there: sandbox venues never hand a message
    // over), so email is not a channel these venues send on.
    t = await startApp({
      env: {
        SMS_URL: 'http://127.0.0.1:4121',
        SMS_ACCOUNT_SID: 'ACpoolreach',
        SMS_AUTH_TOKEN: 'pool-reach-token',
        SMS_FROM: '+15005550006',
      },
    });
    owner = await signUp(t, 'pool-reach-organizer');
    pool = await sandboxVenue(t, owner, {
      name: 'Alfama Print Studio',
      timeZone: 'Europe/Lisbon',
      clock: '2026-09-22T13:40:00Z',
      preset: 'workshop',
      poolCapacity: 17,
      patch: { policy: { holdSeconds: 420 } },
    });
    restaurant = await sandboxVenue(t, owner, {
      name: 'Tasca do Rio',
      timeZone: 'Europe/Lisbon',
      clock: '2026-09-22T19:10:00Z',
      tables: [{ label: 'R3', capacity: 5 }],
    });
  });
  afterAll(() => t.close());

  const rows = async (venueId: string): Promise<{ board: Row[]; queue: Row[] }> => {
    const board = (await request(t.baseUrl).get(`/v1/venues/${venueId}/board`).set(owner.auth).expect(200)).body as {
      queue: Row[];
    };
    const queue = (await request(t.baseUrl).get(`/v1/venues/${venueId}/queue`).set(owner.auth).expect(200)).body as {
      entries: Row[];
    };
    return { board: board.queue, queue: queue.entries };
  };

  it('a workshop group has no reach on the board or the queue, whatever its contact', async () => {
    const mailOnly = await joined(t, owner, pool.id, { name: 'Inês Mail', partySize: 3, email: 'ines@example.test' });
    const withPhone = await joined(t, owner, pool.id, { name: 'Rui Phone', partySize: 2, phone: '+351912345678' });
    const { board, queue } = await rows(pool.id);
    for (const list of [board, queue]) {
      expect(list.map((r) => r.id).sort()).toEqual([mailOnly.entry.id, withPhone.entry.id].sort());
      for (const r of list) expect(r).not.toHaveProperty('reach');
    }
  });

  it("a restaurant's party still reads its reach: none for email only where texts are sent, ok with a phone", async () => {
    const mailOnly = await joined(t, owner, restaurant.id, { name: 'Joana Mail', partySize: 4, email: 'joana@example.test' });
    const withPhone = await joined(t, owner, restaurant.id, { name: 'Tiago Phone', partySize: 2, phone: '+351913456789' });
    const { board, queue } = await rows(restaurant.id);
    for (const list of [board, queue]) {
      const reach = new Map(list.map((r) => [r.id, r.reach]));
      expect(reach.get(mailOnly.entry.id)).toBe('none');
      expect(reach.get(withPhone.entry.id)).toBe('ok');
    }
  });
});
