import request from 'supertest';
import { startApp, type TestApp } from '../support/test-app.js';
import { signUp, type Staff } from '../support/staff.js';
import { joined, sandboxVenue } from '../support/restaurant.js';

/**
 * The Messages tab's name search (`?to=` with a letter and no @) folds case the same on both
 * databases: the embedded one (C locale) folded only ASCII letters, so "joão" did not find the
 * messages about "JOÃO" and "ÖZLEM" was not found by "özlem", where PostgreSQL found them.
 */
describe('the messages name search folds case beyond ASCII', () => {
  let t: TestApp;
  let owner: Staff;
  beforeAll(async () => {
    t = await startApp();
    owner = await signUp(t, 'manager');
  });
  afterAll(() => t.close());

  it('"joão" finds JOÃO PEREIRA\'s messages, "özlem" finds ÖZLEM; "JOSÉ" finds neither', async () => {
    const v = await sandboxVenue(t, owner, {
      name: 'Bairro Alto Bar',
      timeZone: 'Europe/Lisbon',
      clock: '2026-11-23T18:42:00Z',
      tables: [{ label: 'Mesa 6', capacity: 6 }],
    });
    await joined(t, owner, v.id, { name: 'JOÃO PEREIRA', partySize: 3, email: 'jp@example.test' });
    await joined(t, owner, v.id, { name: 'ÖZLEM Kaya', partySize: 2, email: 'ok@example.test' });
    const names = async (to: string): Promise<string[]> => {
      const res = await request(t.baseUrl)
        .get(`/v1/venues/${v.id}/messages?to=${encodeURIComponent(to)}`)
        .set(owner.auth)
        .expect(200);
      return [...new Set((res.body as Array<{ partyName?: string }>).map((m) => m.partyName ?? '?'))];
    };
    expect(await names('joão')).toEqual(['JOÃO PEREIRA']);
    expect(await names('João Pereira')).toEqual(['JOÃO PEREIRA']);
    expect(await names('özlem')).toEqual(['ÖZLEM Kaya']);
    expect(await names('JOSÉ')).toEqual([]);
  });
});
