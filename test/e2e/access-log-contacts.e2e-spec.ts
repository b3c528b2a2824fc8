import { BuiltProcess, API_MAIN, call, freePort, OWNER } from '../support/built-stack.js';
import { memoryImage } from '../support/memory-image.js';

/**
 * The access log is kept longer, and read by more people, than the database: it must not collect the
 * guests' phone numbers and email addresses. The Messages tab searches by recipient in the query
 * string (`…/messages?to=+13125550181`), which the log wrote as it came.
 */
describe('the built api access log', () => {
  it('writes a recipient searched for on the Messages tab as [redacted], and keeps the rest of the query', async () => {
    const port = await freePort();
    const proc = new BuiltProcess(API_MAIN, {
      NODE_ENV: 'development',
      PORT: String(port),
      HOST: '127.0.0.1',
      HOSTBOARD_DATA_DIR: 'memory://',
      HOSTBOARD_MEMORY_IMAGE: await memoryImage(),
    });
    try {
      await proc.started(/running at http/);
      const base = `http://127.0.0.1:${port}`;
      const login = await call(base, 'POST', '/v1/auth/sessions', OWNER);
      const token = login.body['token'] as string;
      const venue = await call(
        base,
        'POST',
        '/v1/venues',
        { slug: 'log-venue', name: 'Log', timeZone: 'America/Chicago', preset: 'restaurant' },
        token,
      );
      const messages = `/v1/venues/${venue.body['id'] as string}/messages`;
      for (const query of [
        'to=+13125550181&channel=sms',
        'to=%2B1%20(312)%20555-0182',
        'to=ada.guest%40example.com',
        'channel=email',
      ]) {
        expect((await call(base, 'GET', `${messages}?${query}`, undefined, token)).status).toBe(200);
      }
      await proc.stop();
      const lines = proc.lines('request completed').filter((l) => l.includes('/messages'));
      expect(lines).toHaveLength(4);
      expect(proc.out).not.toMatch(/5550181|555-0182|ada\.guest/);
      expect(lines.map((l) => (JSON.parse(l) as { req: { url: string } }).req.url.replace(/^.*messages/, 'messages'))).toEqual([
        'messages?to=[redacted]&channel=sms',
        'messages?to=[redacted]',
        'messages?to=[redacted]',
        'messages?channel=email',
      ]);
    } finally {
      proc.child.kill('SIGKILL');
    }
  }, 120_000);
});
