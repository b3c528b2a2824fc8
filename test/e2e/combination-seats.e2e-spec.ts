import request from 'supertest';
import { startApp, type TestApp } from '../support/test-app.js';
import { signUp, type Staff } from '../support/staff.js';
import { sandboxVenue } from '../support/restaurant.js';

/**
 * An approved combination's seats were taken as typed: tables of 3 and 5 approved as seating 31, so
 * a party of 31 joined and was offered two small tables; or as seating 2, fewer than the 5-top alone.
 * Pushing tables together seats at most their seats together and at least the largest of them alone
 * (a combination is approved to seat more than any one of its tables, the restaurant spec: "a single
 * table the party fits, or an approved combination"). Outside that the server refuses in words.
 */
describe('an approved combination seats no more than its tables together and no fewer than the largest', () => {
  let t: TestApp;
  let owner: Staff;
  beforeAll(async () => {
    t = await startApp();
    owner = await signUp(t, 'manager');
  });
  afterAll(() => t.close());

  async function room() {
    return sandboxVenue(t, owner, {
      name: 'Porto Tasca',
      timeZone: 'Europe/Lisbon',
      clock: '2026-11-21T19:06:00Z',
      tables: [
        { label: 'Janela 3', capacity: 3 },
        { label: 'Canto 5', capacity: 5 },
        { label: 'Bar 2', capacity: 2 },
      ],
    });
  }
  const combine = (venueId: string, tableIds: Array<string | undefined>, capacity: number) =>
    request(t.baseUrl).post(`/v1/venues/${venueId}/combinations`).set(owner.auth).send({ tableIds, capacity });

  it('more than the tables together is refused, naming the sum', async () => {
    const v = await room();
    const res = await combine(v.id, [v.tableIds['Janela 3'], v.tableIds['Canto 5']], 9).expect(400);
    expect(res.body.error).toEqual({
      code: 'VALIDATION',
      message: 'Janela 3 + Canto 5 seat 8 together (3 + 5); a combination of them cannot seat 9.',
      details: { field: 'capacity', min: 5, max: 8 },
    });
    expect((await request(t.baseUrl).get(`/v1/venues/${v.id}/combinations`).set(owner.auth).expect(200)).body).toEqual([]);
  });

  it('fewer than the largest table alone is refused, naming it', async () => {
    const v = await room();
    const res = await combine(v.id, [v.tableIds['Bar 2'], v.tableIds['Canto 5'], v.tableIds['Janela 3']], 4).expect(400);
    expect(res.body.error).toEqual({
      code: 'VALIDATION',
      message: 'Canto 5 alone seats 5; a combination with it seats at least 5, not 4.',
      details: { field: 'capacity', min: 5, max: 10 },
    });
  });

  it('from the largest table up to the sum is approved', async () => {
    const v = await room();
    await combine(v.id, [v.tableIds['Janela 3'], v.tableIds['Canto 5']], 8).expect(201);
    await combine(v.id, [v.tableIds['Bar 2'], v.tableIds['Canto 5']], 5).expect(201);
    await combine(v.id, [v.tableIds['Bar 2'], v.tableIds['Janela 3']], 4).expect(201);
  });

  it('a table made smaller than an approved combination with it still needs is refused, naming the combination', async () => {
    const v = await room();
    const resize = (label: string, capacity: number) =>
      request(t.baseUrl).patch(`/v1/venues/${v.id}/tables/${v.tableIds[label]}`).set(owner.auth).send({ capacity });
    const approved = (await combine(v.id, [v.tableIds['Janela 3'], v.tableIds['Canto 5']], 7).expect(201)).body as { id: string };
    // 3 + 4 still seat 7 together: made smaller, it stays inside the combination.
    await resize('Canto 5', 4).expect(200);
    const res = await resize('Canto 5', 2).expect(409);
    expect(res.body.error).toEqual({
      code: 'CONFLICT',
      message:
        'Canto 5 + Janela 3 is approved to seat 7; with Canto 5 at 2 they seat 5 together. Remove that combination first, then approve it again for at most 5.',
      details: { field: 'capacity', combinationId: approved.id, together: 5 },
    });
    const tables = (await request(t.baseUrl).get(`/v1/venues/${v.id}/tables`).set(owner.auth).expect(200)).body as Array<{
      label: string;
      capacity: number;
    }>;
    expect(tables.find((x) => x.label === 'Canto 5')?.capacity).toBe(4);
    // Larger is never refused for the combination's sake; nor a table in none.
    await resize('Canto 5', 6).expect(200);
    await resize('Bar 2', 1).expect(200);
  });

  it('a table made larger than an approved combination with it seats is refused, naming the combination', async () => {
    const v = await room();
    const resize = (label: string, capacity: number) =>
      request(t.baseUrl).patch(`/v1/venues/${v.id}/tables/${v.tableIds[label]}`).set(owner.auth).send({ capacity });
    const approved = (await combine(v.id, [v.tableIds['Bar 2'], v.tableIds['Janela 3']], 4).expect(201)).body as { id: string };
    // Up to the combination's own seats it is still "more than any one of its tables" (or as many).
    await resize('Janela 3', 4).expect(200);
    // Past them, the pair would be approved to seat fewer than the 6-top alone (as a new one is refused).
    const res = await resize('Janela 3', 6).expect(409);
    expect(res.body.error).toEqual({
      code: 'CONFLICT',
      message:
        'Bar 2 + Janela 3 is approved to seat 4; with Janela 3 at 6 they seat fewer than it alone. Remove that combination first, then approve it again for at least 6.',
      details: { field: 'capacity', combinationId: approved.id, largest: 6 },
    });
    const tables = (await request(t.baseUrl).get(`/v1/venues/${v.id}/tables`).set(owner.auth).expect(200)).body as Array<{
      label: string;
      capacity: number;
    }>;
    expect(tables.find((x) => x.label === 'Janela 3')?.capacity).toBe(4);
    // With the combination removed, the table grows.
    await request(t.baseUrl).delete(`/v1/venues/${v.id}/combinations/${approved.id}`).set(owner.auth).expect(200);
    await resize('Janela 3', 6).expect(200);
  });
});
