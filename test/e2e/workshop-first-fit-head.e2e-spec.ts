import request from 'supertest';
import { startApp, type TestApp } from '../support/test-app.js';
import { createVenue, signUp, type Staff } from '../support/staff.js';

type Head = { entryId: string; fits: boolean; reason: string | null } | null | undefined;

/**
 * API.md: for pool venues `head` "explains the next promotion". At a venue whose policy is first fit
 * (`order: host-pick`, the guide's alternative), the next promotion holds seats for the oldest group
 * that fits, not for the oldest group: with two seats left, W-01 (3) waiting and W-02 (2) behind it,
 * the queue and the board said "Two seats available; the oldest group needs three." and the
 * promotion then held W-02's seats.
 */
describe('the head of a pool queue names the group the next promotion holds seats for', () => {
  let t: TestApp;
  let owner: Staff;
  beforeAll(async () => {
    t = await startApp();
    owner = await signUp(t, 'organizer');
  });
  afterAll(() => t.close());

  async function venueWithTwoLeft(order: 'strict' | 'host-pick'): Promise<{ venueId: string; w1: string; w2: string }> {
    const venueId = (
      await createVenue(t, owner, {
        name: `Seven ${order}`,
        preset: 'workshop',
        poolCapacity: 7,
        timeZone: 'Asia/Kathmandu',
        sandbox: true,
        clock: '2026-12-10T14:10:00+05:45',
      })
    ).id;
    await request(t.baseUrl).patch(`/v1/venues/${venueId}`).set(owner.auth).send({ policy: { order } }).expect(200);
    await request(t.baseUrl)
      .post(`/v1/venues/${venueId}/reservations`)
      .set(owner.auth)
      .send({ name: 'A', partySize: 5 })
      .expect(201);
    const join = async (name: string, partySize: number): Promise<string> =>
      (await request(t.baseUrl).post(`/v1/venues/${venueId}/queue`).set(owner.auth).send({ name, partySize }).expect(201)).body
        .entry.id as string;
    return { venueId, w1: await join('W-01', 3), w2: await join('W-02', 2) };
  }

  const heads = async (venueId: string): Promise<{ queue: Head; board: Head }> => ({
    queue: (await request(t.baseUrl).get(`/v1/venues/${venueId}/queue`).set(owner.auth).expect(200)).body.head as Head,
    board: (await request(t.baseUrl).get(`/v1/venues/${venueId}/board`).set(owner.auth).expect(200)).body.head as Head,
  });

  it('first fit: names W-02, which fits, and the promotion holds W-02', async () => {
    const { venueId, w2 } = await venueWithTwoLeft('host-pick');
    const want = { entryId: w2, fits: true, reason: null };
    expect(await heads(venueId)).toEqual({ queue: want, board: want });
    const promoted = await request(t.baseUrl).post(`/v1/venues/${venueId}/promotions`).set(owner.auth).expect(201);
    expect(promoted.body.offer.entryId).toBe(w2);
  });

  it('strict order: names W-01 with the reason, and the promotion holds nobody', async () => {
    const { venueId, w1 } = await venueWithTwoLeft('strict');
    const want = { entryId: w1, fits: false, reason: 'Two seats available; the oldest group needs three.' };
    expect(await heads(venueId)).toEqual({ queue: want, board: want });
    const promoted = await request(t.baseUrl).post(`/v1/venues/${venueId}/promotions`).set(owner.auth).expect(200);
    expect(promoted.body).toEqual({ offer: null, reason: 'Two seats available; the oldest group needs three.' });
  });

  it("first fit with nobody fitting: names the oldest group and says why, in the promotion's words", async () => {
    const { venueId, w1, w2 } = await venueWithTwoLeft('host-pick');
    await request(t.baseUrl).post(`/v1/venues/${venueId}/queue`).set(owner.auth).send({ name: 'W-03', partySize: 1 }).expect(201);
    const first = await request(t.baseUrl).post(`/v1/venues/${venueId}/promotions`).set(owner.auth).expect(201);
    expect(first.body.offer.entryId).toBe(w2);
    const reason = 'No seats available; the oldest group needs three.';
    const want = { entryId: w1, fits: false, reason };
    expect(await heads(venueId)).toEqual({ queue: want, board: want });
    const none = await request(t.baseUrl).post(`/v1/venues/${venueId}/promotions`).set(owner.auth).expect(200);
    expect(none.body).toEqual({ offer: null, reason });
  });
});
