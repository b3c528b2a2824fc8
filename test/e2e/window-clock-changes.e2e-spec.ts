import request from 'supertest';
import { startApp, type TestApp } from '../support/test-app.js';
import { signUp, type Staff } from '../support/staff.js';
import { EVERY_DAY, sandboxVenue } from '../support/restaurant.js';

/**
 * Service hours whose start or end the clocks skip or repeat on a daylight-saving night were taken in
 * silence: 02:30–05:00 in New York opens at 03:00 on 8 March, 02:15–02:45 does not run at all that
 * night, and 18:00–01:30 runs through the second 01:30 on 1 November, with nothing telling the manager.
 * The answer now says so, in plain words, for each such night of the next twelve months.
 */
describe('adding service hours says what they do on the nights the clocks change', () => {
  let t: TestApp;
  let owner: Staff;
  beforeAll(async () => {
    t = await startApp();
    owner = await signUp(t, 'clock-notes');
  });
  afterAll(async () => t.close());

  async function notesFor(timeZone: string, start: string, end: string, days = EVERY_DAY): Promise<unknown> {
    const v = await sandboxVenue(t, owner, { timeZone, clock: '2026-01-10T12:00:00Z', windows: [] });
    const res = await request(t.baseUrl)
      .post(`/v1/venues/${v.id}/service-windows`)
      .set(owner.auth)
      .send({ days, start, end, turnMinutes: 30 })
      .expect(201);
    return (res.body as { clockChanges?: unknown }).clockChanges;
  }

  it('a start the clocks skip: the hours start when the clocks have gone forward', async () => {
    expect(await notesFor('America/New_York', '02:30', '05:00')).toEqual([
      'Sun, Mar 8, 2026: the clocks go forward and 02:30 does not happen; these hours start at 03:00.',
    ]);
  });

  it('hours wholly inside the skipped hour do not run that night', async () => {
    expect(await notesFor('America/New_York', '02:15', '02:45')).toEqual([
      'Sun, Mar 8, 2026: the clocks go forward and 02:15–02:45 does not happen; these hours do not run that night.',
    ]);
  });

  it('an end past midnight the clocks skip, then repeat: both nights are named, by the evening they start', async () => {
    expect(await notesFor('America/New_York', '18:00', '02:30')).toEqual([
      'Sat, Mar 7, 2026: the clocks go forward and 02:30 does not happen; these hours end at 03:00.',
    ]);
    expect(await notesFor('America/New_York', '18:00', '01:30')).toEqual([
      'Sat, Oct 31, 2026: the clocks go back and 01:30 happens twice; these hours end the second time.',
    ]);
  });

  it('a start in the repeated hour opens the first time; only the weekdays served are named', async () => {
    expect(await notesFor('Europe/London', '01:15', '04:00', [7])).toEqual([
      'Sun, Mar 29, 2026: the clocks go forward and 01:15 does not happen; these hours start at 02:00.',
      'Sun, Oct 25, 2026: the clocks go back and 01:15 happens twice; these hours start the first time.',
    ]);
    expect(await notesFor('Europe/London', '01:15', '04:00', [1, 2, 3, 4, 5, 6])).toEqual([]);
  });

  it('the list of service hours says the same, counted from the venue’s clock at the read', async () => {
    const v = await sandboxVenue(t, owner, { timeZone: 'America/New_York', clock: '2026-01-10T12:00:00Z', windows: [] });
    for (const [start, end] of [
      ['02:30', '05:00'],
      ['17:00', '23:00'],
    ])
      await request(t.baseUrl)
        .post(`/v1/venues/${v.id}/service-windows`)
        .set(owner.auth)
        .send({ days: EVERY_DAY, start, end, turnMinutes: 30 })
        .expect(201);
    type Listed = Array<{ start: string; clockChanges: string[] }>;
    const listed = async (): Promise<Listed> =>
      (await request(t.baseUrl).get(`/v1/venues/${v.id}/service-windows`).set(owner.auth).expect(200)).body as Listed;
    const byStart = (rows: Listed) => Object.fromEntries(rows.map((w) => [w.start, w.clockChanges]));
    expect(byStart(await listed())).toEqual({
      '02:30': ['Sun, Mar 8, 2026: the clocks go forward and 02:30 does not happen; these hours start at 03:00.'],
      '17:00': [],
    });
    // The day after that night it is no longer named; the next one is, once within twelve months.
    const move = (now: string) => request(t.baseUrl).post(`/v1/venues/${v.id}/clock`).set(owner.auth).send({ now }).expect(200);
    await move('2026-03-09T12:00:00Z');
    expect(byStart(await listed())['02:30']).toEqual([]);
    await move('2026-04-01T12:00:00Z');
    expect(byStart(await listed())['02:30']).toEqual([
      'Sun, Mar 14, 2027: the clocks go forward and 02:30 does not happen; these hours start at 03:00.',
    ]);
  });

  it('Lord Howe moves its clocks by half an hour; Kathmandu and ordinary hours never change', async () => {
    expect(await notesFor('Australia/Lord_Howe', '18:00', '01:45')).toEqual([
      'Sat, Apr 4, 2026: the clocks go back and 01:45 happens twice; these hours end the second time.',
    ]);
    expect(await notesFor('Asia/Kathmandu', '18:00', '02:00')).toEqual([]);
    expect(await notesFor('America/New_York', '17:00', '23:00')).toEqual([]);
  });
});
