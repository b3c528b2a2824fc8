import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { hashSecret } from '@hostboard/auth';
import { exchange, joined, party, sandboxVenue, type Sandbox } from '../support/restaurant.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { signUp, type Staff } from '../support/staff.js';

/** Crockford's base 32: digits and capitals, never I, L, O or U. */
const UNAMBIGUOUS = /^[0-9A-HJKMNP-TV-Z]{43}$/;

/**
 * The queue code is handed over in person and typed back at the desk's Find by code, sometimes as the
 * party reads it out. Codes mixed l, I and 1, and 0 and O, and case: one character misheard and the
 * desk answered TOKEN_INVALID. New codes use no letter that reads like a digit and one case, and a
 * code is found however it was typed (any case, l or I for 1, O for 0); codes issued before keep
 * working exactly as they were given.
 */
describe('queue codes read aloud', () => {
  let t: TestApp;
  let owner: Staff;
  let v: Sandbox;
  const ds = (): DataSource => t.app.get<DataSource>(getDataSourceToken());
  const lookup = (token: string): request.Test =>
    request(t.baseUrl).post(`/v1/venues/${v.id}/queue/lookup`).set(owner.auth).send({ token });
  const entryOf = (res: request.Response): string | undefined => (res.body as { entry?: { id: string } }).entry?.id;

  beforeAll(async () => {
    t = await startApp();
    owner = await signUp(t, 'codes-owner');
    v = await sandboxVenue(t, owner, { clock: '2026-10-09T23:00:00.000Z', tables: [{ label: 'T1', capacity: 4 }] });
  });
  afterAll(() => t.close());

  it('issues codes without ambiguous characters and finds them however they are typed', async () => {
    const codes: string[] = [];
    let last = '';
    for (let i = 0; i < 5; i++) {
      const j = await joined(t, owner, v.id, party(2));
      codes.push(j.queueToken ?? '');
      last = j.entry.id;
    }
    for (const code of codes) expect(code).toMatch(UNAMBIGUOUS);
    const code = codes[codes.length - 1] ?? '';
    // As heard and typed: lower case, every 1 typed as l or I, every 0 as O.
    const typed = code.toLowerCase().replace(/1/g, 'l');
    const typedToo = code.replace(/1/g, 'I').replace(/0/g, 'O').toLowerCase();
    expect(entryOf(await lookup(typed).expect(200))).toBe(last);
    expect(entryOf(await lookup(typedToo).expect(200))).toBe(last);
    // A code that differs by more than how it is read is still refused.
    const other = `${code.slice(0, -1)}${code.endsWith('2') ? '3' : '2'}`;
    expect((await lookup(other)).status).toBe(401);
    // The party's own exchange is as forgiving (once: the code is then used).
    await exchange(t, typedToo).expect(201);
    expect((await exchange(t, code)).status).toBe(401);
  });

  it('keeps codes issued before working as given, case and all', async () => {
    const j = await joined(t, owner, v.id, party(2));
    // A code of the old shape (base64url, both cases), stored the way it was stored then.
    const old = `aB${randomBytes(32).toString('base64url').slice(2)}`;
    await ds().query('UPDATE queue_tokens SET token_hash = $1 WHERE entry_id = $2', [hashSecret(old), j.entry.id]);
    expect(entryOf(await lookup(old).expect(200))).toBe(j.entry.id);
    expect((await lookup(old.toLowerCase())).status).toBe(401);
    await exchange(t, old).expect(201);
  });
});
