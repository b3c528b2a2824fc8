import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { OutboxRelay } from '@hostboard/outbox';
import { joined, liveVenue, messages, party } from '../support/restaurant.js';
import { smtpCatcher, type SmtpCatcher } from '../support/smtp-catcher.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { signUp } from '../support/staff.js';

/** The relay hands recorded emails to a real SMTP server (on loopback), each at most once. */
describe('outbox relay over SMTP', () => {
  let smtp: SmtpCatcher;
  let received: SmtpCatcher['mail'];
  let t: TestApp;

  beforeAll(async () => {
    smtp = await smtpCatcher();
    received = smtp.mail;
    t = await startApp({ env: { SMTP_URL: smtp.url, REDIS_URL: '' } });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it('sends each recorded email once and marks it sent', async () => {
    const owner = await signUp(t, 'owner');
    const v = await liveVenue(t, owner, { tables: [{ label: 'T1', capacity: 2 }] });
    await joined(t, owner, v.id, { ...party(2, 'Relay'), email: 'relay@example.test' });
    const relay = t.app.get(OutboxRelay);
    expect(await relay.relay()).toBe(1);
    expect(await relay.relay()).toBe(0);
    expect(received).toHaveLength(1);
    expect(received[0]?.to).toBe('relay@example.test');
    expect(received[0]?.data).toContain('Queue position when you joined: 1');
    const [m] = await messages(t, owner, v.id);
    expect(m?.status).toBe('sent');
    const rows: Array<{ sent_at: Date | null }> = await t.app
      .get<DataSource>(getDataSourceToken())
      .query('SELECT sent_at FROM outbox_messages');
    expect(rows[0]?.sent_at).not.toBeNull();
  });
});
