import request from 'supertest';
import { joined, liveVenue, messages, type MessageBody } from '../support/restaurant.js';
import { fakeSmsProvider, type FakeSmsProvider } from '../support/fake-sms-provider.js';
import { waitFor } from '../support/board-client.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { describeWithServerAndRedis } from '../support/test-database.js';
import { startWorker } from '../support/test-worker.js';
import { signUp, type Staff } from '../support/staff.js';

/**
 * A deploy stops the worker with SIGTERM (what `close()` runs) while its relay may be handing a text
 * to the provider. The provider takes it; the worker must record that before its database closes,
 * and hand over nothing more. Left `sending`, the text reads as never sent on the Messages tab and
 * holds back the guest's next texts (a "your table is ready") for minutes after the next worker starts.
 */
describeWithServerAndRedis('the real worker process module on PostgreSQL and BullMQ')(
  'a worker stopped while a text is with the provider',
  () => {
    let t: TestApp;
    let owner: Staff;
    let provider: FakeSmsProvider;

    beforeAll(async () => {
      provider = await fakeSmsProvider();
      // No provider in the app itself: only the worker relays.
      t = await startApp();
      owner = await signUp(t, 'owner');
    });
    afterAll(async () => {
      await t.close();
      await provider.close();
    });

    it('records the text the provider took as sent, and leaves the next one recorded for the next worker', async () => {
      const v = await liveVenue(t, owner, { tables: [{ label: 'T1', capacity: 4 }] });
      const phone = '+13125550181';
      const { entry } = await joined(t, owner, v.id, { name: 'Ada', partySize: 2, phone });
      await request(t.baseUrl)
        .post(`/v1/venues/${v.id}/offers`)
        .set(owner.auth)
        .send({ entryId: entry.id, entryVersion: entry.version, tableIds: [v.tableIds['T1']] })
        .expect(201);
      const texts = async (): Promise<MessageBody[]> =>
        (await messages(t, owner, v.id))
          .filter((m) => m.channel === 'sms')
          .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
      expect((await texts()).map((m) => m.template)).toEqual(['queue-joined', 'table-ready']);

      // The provider holds its answer to the first text until the worker has been told to stop.
      let answer!: () => void;
      const answered = new Promise<void>((resolve) => (answer = resolve));
      provider.answer = async () => {
        await answered;
        return 201;
      };
      const worker = await startWorker(t, provider.env);
      let closed: Promise<void> | undefined;
      try {
        await waitFor(() => provider.received.length === 1, 15_000, 'the first text at the provider');
        closed = worker.close();
        await new Promise((resolve) => setTimeout(resolve, 300));
        answer();
        await closed;
      } finally {
        answer();
        if (!closed) await worker.close();
      }

      expect(provider.received.map((r) => r.form.get('To'))).toEqual([phone]);
      const [joinedText, readyText] = await texts();
      expect(joinedText?.status).toBe('sent');
      // Not handed over by the stopping worker, and not stuck `sending`: the next worker sends it.
      expect(readyText?.status).toBe('recorded');
      expect(readyText?.notSentReason).toBeUndefined();

      provider.answer = () => 201;
      const next = await startWorker(t, provider.env);
      try {
        for (const until = Date.now() + 15_000; !(await texts()).every((m) => m.status === 'sent');) {
          if (Date.now() > until) throw new Error('the next worker did not send the recorded text');
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      } finally {
        await next.close();
      }
      expect(provider.received.map((r) => r.form.get('Body')?.split(':')[1]?.trim().slice(0, 20))).toEqual([
        'you are in the queue',
        'your table is ready.',
      ]);
    }, 60_000);
  },
);
