import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { startApp } from '../support/test-app.js';

/** `npm start` on an empty embedded database seeds the demo venues once, for a demo owner. */
describe('first-start demo (embedded default)', () => {
  it('seeds Maple Room at 09:00 of the worksheet and a restaurant with a running window, once', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'hb-demo-'));
    const db = { url: undefined, drop: async () => undefined };
    const env = { NODE_ENV: 'development', HOSTBOARD_DATA_DIR: dataDir, REDIS_URL: '' };
    const written: string[] = [];
    const write = process.stdout.write.bind(process.stdout);
    process.stdout.write = ((chunk: string | Uint8Array) => (written.push(String(chunk)), true)) as typeof process.stdout.write;
    let t;
    try {
      t = await startApp({ db, env });
    } finally {
      process.stdout.write = write;
    }
    try {
      const password = /password: (\S+)/.exec(written.join(''))?.[1] ?? '';
      const login = await request(t.baseUrl)
        .post('/v1/auth/sessions')
        .send({ email: 'owner@hostboard.local', password })
        .expect(201);
      const auth = { Authorization: `Bearer ${(login.body as { token: string }).token}` };
      const venues = (await request(t.baseUrl).get('/v1/venues').set(auth).expect(200)).body as Array<{
        id: string;
        name: string;
        clock: string | null;
      }>;
      const maple = venues.find((v) => v.name === 'Maple Room');
      expect(maple?.clock).toBe('2026-10-09T14:00:00.000Z');
      const counts = await request(t.baseUrl).get(`/v1/venues/${maple?.id}/counts`).set(auth).expect(200);
      expect(counts.body).toEqual({ capacity: 12, confirmed: 10, held: 0, available: 2 });
      const queue = (await request(t.baseUrl).get(`/v1/venues/${maple?.id}/queue`).set(auth).expect(200)).body as {
        entries: Array<{ name: string }>;
        head: { reason: string };
      };
      expect(queue.entries.map((e) => e.name)).toEqual(['W-01', 'W-02', 'W-03']);
      expect(queue.head.reason).toBe('Two seats available; the oldest group needs three.');
      const bistro = venues.find((v) => v.name === 'Corner Bistro');
      const board = (await request(t.baseUrl).get(`/v1/venues/${bistro?.id}/board`).set(auth).expect(200)).body as {
        tables: unknown[];
      };
      expect(board.tables).toHaveLength(4);
      await request(t.baseUrl)
        .post(`/v1/venues/${bistro?.id}/queue`)
        .set(auth)
        .send({ name: 'Walk-in', partySize: 2, email: 'w@example.test' })
        .expect(201);
      // The largest party the demo restaurant takes has a table or combination to sit at: the board
      // opens without "larger parties are refused".
      const cap = (
        (await request(t.baseUrl).get(`/v1/venues/${bistro?.id}`).set(auth).expect(200)).body as { queuePartyCap: number }
      ).queuePartyCap;
      expect(cap).toBeGreaterThan(6);
      await request(t.baseUrl)
        .post(`/v1/venues/${bistro?.id}/queue`)
        .set(auth)
        .send({ name: 'Large walk-in', partySize: cap, email: 'large@example.test' })
        .expect(201);
      await t.app.close();
      // A second start finds accounts and seeds nothing more.
      t = await startApp({ db, env });
      const rows: Array<{ n: string }> = await t.app
        .get<DataSource>(getDataSourceToken())
        .query('SELECT count(*) AS n FROM venues');
      expect(Number(rows[0]?.n)).toBe(2);
    } finally {
      await t.app.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
