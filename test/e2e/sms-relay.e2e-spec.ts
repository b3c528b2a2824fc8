import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { INestApplicationContext } from '@nestjs/common';
import request from 'supertest';
import { ConfigError, loadConfig } from '@hostboard/core';
import { OutboxRelay } from '@hostboard/outbox';
import { joined, messages, liveVenue, uniq, type MessageBody } from '../support/restaurant.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { startWorker } from '../support/test-worker.js';
import { signUp, type Staff } from '../support/staff.js';

const SID = 'AC00000000000000000000000000000001';
const AUTH = 'fake-auth-token';
const FROM = '+13125550100';
/** The fake provider refuses this number, as Twilio refuses an unreachable one. */
const REFUSED = '+13125550199';

interface Received {
  path: string;
  authorization: string | undefined;
  form: URLSearchParams;
}

/** A loopback stand-in for a Twilio-compatible REST API: records each request, refuses one number. */
async function fakeProvider(): Promise<{ server: Server; url: string; received: Received[] }> {
  const received: Received[] = [];
  const read = (req: IncomingMessage): Promise<string> =>
    new Promise((resolve) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => resolve(body));
    });
  const server = createServer((req, res) => {
    void read(req).then((body) => {
      const form = new URLSearchParams(body);
      received.push({ path: req.url ?? '', authorization: req.headers.authorization, form });
      res.setHeader('content-type', 'application/json');
      if (form.get('To') === REFUSED) {
        res.statusCode = 400;
        res.end(JSON.stringify({ code: 21610, message: 'Attempt to send to unsubscribed recipient', status: 400 }));
        return;
      }
      res.statusCode = 201;
      res.end(JSON.stringify({ sid: `SM${uniq()}`, status: 'queued', to: form.get('To') }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received };
}

/**
 * The text relay against a loopback fake provider, across two workers on one database: each text is
 * handed over at most once, a provider refusal is recorded with its reason, the board marks the
 * party, and emails (no SMTP configured) stay recorded.
 */
describe('outbox relay of texts to a Twilio-compatible provider', () => {
  let provider: Awaited<ReturnType<typeof fakeProvider>>;
  let t: TestApp;
  let owner: Staff;
  const workers: INestApplicationContext[] = [];
  const redis = process.env['REDIS_URL'];

  beforeAll(async () => {
    provider = await fakeProvider();
    const sms = { SMS_URL: provider.url, SMS_ACCOUNT_SID: SID, SMS_AUTH_TOKEN: AUTH, SMS_FROM: FROM };
    t = await startApp({ env: sms });
    owner = await signUp(t, 'owner');
    // Two workers (the worker app's module) with the provider configured; without Redis (the
    // embedded default) two relays in the api's own process stand in for them.
    if (redis) for (let i = 0; i < 2; i++) workers.push(await startWorker(t, sms));
  });
  afterAll(async () => {
    for (const w of workers) await w.close();
    await t.close();
    await new Promise<void>((resolve) => provider.server.close(() => resolve()));
  });

  const relays = (): OutboxRelay[] => (workers.length > 0 ? workers : [t.app, t.app]).map((w) => w.get(OutboxRelay));

  it('sends each text once across two workers, records a refusal with its reason, and leaves emails recorded', async () => {
    const v = await liveVenue(t, owner, { tables: [{ label: 'T1', capacity: 2 }] });
    // More texts than one relay run claims (50), so the two workers share the work.
    const phones = Array.from({ length: 64 }, (_, i) => `+131255501${String(i + 10).padStart(2, '0')}`);
    const parties = [];
    for (const [i, phone] of phones.entries())
      parties.push(await joined(t, owner, v.id, { name: `Text ${i}`, partySize: 2, phone }));
    const refused = await joined(t, owner, v.id, { name: 'Refused', partySize: 2, phone: REFUSED });
    const mailOnly = await joined(t, owner, v.id, { name: 'Mail only', partySize: 2, email: `m-${uniq()}@example.test` });

    // Both workers relay at once, again and again, until nothing is left to claim (their own
    // five-second relay jobs run too; who sends which is theirs to race for).
    for (let round = 0; round < 10; round++) {
      const sent = await Promise.all(relays().map((r) => r.relay()));
      if (sent.every((n) => n === 0)) break;
    }
    // Nothing left to claim is not everything handed over: the api's own relay job may still be
    // sending a batch it claimed (under load it lost 5 texts to this check). Wait for the venue's
    // texts to leave `sending`; one left there for good fails the checks below.
    for (const until = Date.now() + 30_000; Date.now() < until;) {
      if (!(await messages(t, owner, v.id)).some((m) => m.status === 'sending')) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    const texts = provider.received.filter((r) => r.path === `/2010-04-01/Accounts/${SID}/Messages.json`);
    expect(texts).toHaveLength(provider.received.length);
    const to = texts.map((r) => r.form.get('To'));
    // Every text handed over exactly once (the refused one was tried once too).
    expect([...to].sort()).toEqual([...phones, REFUSED].sort());
    expect(new Set(to).size).toBe(to.length);
    for (const r of texts) {
      expect(r.authorization).toBe(`Basic ${Buffer.from(`${SID}:${AUTH}`).toString('base64')}`);
      expect(r.form.get('From')).toBe(FROM);
      expect(r.form.get('Body')).toContain('Queue position when you joined:');
    }

    const all = await messages(t, owner, v.id);
    const byEntry = (id: string): MessageBody | undefined => all.find((m) => m.entryId === id);
    for (const p of parties) expect(byEntry(p.entry.id)).toMatchObject({ channel: 'sms', status: 'sent' });
    expect(byEntry(refused.entry.id)).toMatchObject({
      channel: 'sms',
      status: 'failed',
      failureReason: '400 (code 21610): Attempt to send to unsubscribed recipient',
    });
    // No email provider: the email stays recorded, never claimed.
    expect(byEntry(mailOnly.entry.id)).toMatchObject({ channel: 'email', status: 'recorded' });

    // The board marks who is not reached: the refused text, and the email-only party (this venue
    // sends texts, not emails); the others are fine.
    const board = (await request(t.baseUrl).get(`/v1/venues/${v.id}/board`).set(owner.auth).expect(200)).body as {
      queue: Array<{ id: string; reach: string }>;
    };
    const reach = new Map(board.queue.map((e) => [e.id, e.reach]));
    expect(reach.get(refused.entry.id)).toBe('failed');
    expect(reach.get(mailOnly.entry.id)).toBe('none');
    expect(parties.every((p) => reach.get(p.entry.id) === 'ok')).toBe(true);

    // Relaying again sends nothing more.
    expect(await Promise.all(relays().map((r) => r.relay()))).toEqual([0, 0]);
    expect(provider.received).toHaveLength(phones.length + 1);
  });
});

describe('text provider configuration', () => {
  it.each([
    [{ SMS_URL: 'api.twilio.com' }, /SMS_URL/],
    [{ SMS_URL: 'https://api.twilio.com' }, 'Configuration error: SMS_URL needs SMS_ACCOUNT_SID, SMS_AUTH_TOKEN, SMS_FROM too'],
    [{ SMS_URL: 'https://api.twilio.com', SMS_ACCOUNT_SID: 'AC1', SMS_AUTH_TOKEN: 'x' }, /needs SMS_FROM too/],
    [{ PUBLIC_URL: 'guests.example.com' }, /PUBLIC_URL/],
  ])('refuses %j', (env, said) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(said);
  });

  it('accepts a complete provider', () => {
    const c = loadConfig({
      SMS_URL: 'https://api.twilio.com',
      SMS_ACCOUNT_SID: 'AC1',
      SMS_AUTH_TOKEN: 'x',
      SMS_FROM: '+13125550100',
    });
    expect(c.SMS_URL).toBe('https://api.twilio.com');
  });
});
