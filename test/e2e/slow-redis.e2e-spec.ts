import { startApp } from '../support/test-app.js';
import { describeWithServerAndRedis } from '../support/test-database.js';
import { slowRedis } from '../support/slow-redis.js';

describeWithServerAndRedis('a slow Redis needs PostgreSQL and Redis')('an api stopped moments after it started', () => {
  it('leaves no Redis command rejected unheard when Redis is slow to answer', async () => {
    const unheard: unknown[] = [];
    const listener = (reason: unknown): void => void unheard.push(reason);
    process.on('unhandledRejection', listener);
    const proxy = await slowRedis(new URL(process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379'), 400);
    try {
      for (let i = 0; i < 3; i++) {
        const t = await startApp({ env: { REDIS_URL: proxy.url } });
        await t.close();
      }
      await new Promise((r) => setTimeout(r, 500));
      expect(unheard.map(String)).toEqual([]);
    } finally {
      process.off('unhandledRejection', listener);
      await proxy.close();
    }
  }, 60_000);
});
