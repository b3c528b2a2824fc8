import { BOARD_SOCKET_LIMITS, BoardSocketLimiter, RATE_LIMITED_ACK, TokenBucket } from './board-socket.limiter.js';
import { SnapshotReads } from './snapshot-reads.js';
import { BoardSnapshotSource } from '../board-snapshot.source.js';

describe('TokenBucket', () => {
  it('gives the burst at once, then one per refill interval, never more than the burst', () => {
    const b = new TokenBucket(3, 1_000, 0);
    expect([b.take(0), b.take(0), b.take(0), b.take(0)]).toEqual([true, true, true, false]);
    expect(b.take(999)).toBe(false);
    expect(b.take(1_000)).toBe(true);
    expect(b.take(1_500)).toBe(false);
    // Partial intervals are kept: 1,000 + 1,000 ms after the last refill, not after the last take.
    expect(b.take(2_000)).toBe(true);
    expect(b.full(100_000)).toBe(true);
    expect([b.take(100_000), b.take(100_000), b.take(100_000), b.take(100_000)]).toEqual([true, true, true, false]);
  });
});

describe('BoardSocketLimiter', () => {
  const socket = (userId: string): { data: Record<string, unknown> } => ({ data: { userId } });

  it('refuses a socket past its own limit while another socket of the same login still passes', () => {
    let now = 0;
    const limiter = new BoardSocketLimiter(() => now);
    const flooding = socket('u1');
    const burst = BOARD_SOCKET_LIMITS.subscribePerSocket.burst;
    const answers = Array.from({ length: burst + 5 }, () => limiter.admit(flooding, 'subscribe'));
    expect(answers.filter(Boolean)).toHaveLength(burst);
    expect(limiter.admit(socket('u1'), 'subscribe')).toBe(true);
    now += BOARD_SOCKET_LIMITS.subscribePerSocket.refillMs;
    expect(limiter.admit(flooding, 'subscribe')).toBe(true);
  });

  it('bounds a login across many sockets, and snapshots apart from subscribes', () => {
    const limiter = new BoardSocketLimiter(() => 0);
    let admitted = 0;
    for (let i = 0; i < 100; i++) if (limiter.admit(socket('u2'), 'snapshot')) admitted++;
    expect(admitted).toBe(BOARD_SOCKET_LIMITS.snapshotPerUser.burst);
    expect(limiter.admit(socket('u2'), 'subscribe')).toBe(true);
    expect(limiter.admit(socket('u3'), 'snapshot')).toBe(true);
  });
});

describe('BoardSocketLimiter.middleware', () => {
  it('acks a refused subscribe itself and passes everything else on', () => {
    const limiter = new BoardSocketLimiter(() => 0);
    const use = limiter.middleware({ data: { userId: 'u4' } });
    const passed: string[] = [];
    const acks: unknown[] = [];
    for (let i = 0; i < 15; i++)
      use(['subscribe', { venueId: 'v' }, (a: unknown) => acks.push(a)], () => passed.push('subscribe'));
    use(['board.other', {}], () => passed.push('other'));
    expect(passed.filter((p) => p === 'subscribe')).toHaveLength(BOARD_SOCKET_LIMITS.subscribePerSocket.burst);
    expect(passed).toContain('other');
    expect(acks).toHaveLength(15 - BOARD_SOCKET_LIMITS.subscribePerSocket.burst);
    expect(acks[0]).toEqual(RATE_LIMITED_ACK);
  });
});

describe('SnapshotReads', () => {
  class SlowSource extends BoardSnapshotSource {
    reads = 0;
    readonly pending: Array<() => void> = [];
    snapshot(): Promise<{ version: number }> {
      const n = ++this.reads;
      return new Promise((resolve) => this.pending.push(() => resolve({ version: n })));
    }
  }

  it('runs at most one read per venue; callers during it share the next read, never the running one', async () => {
    const source = new SlowSource();
    const reads = new SnapshotReads(source);
    const first = reads.read('v');
    const during = Array.from({ length: 50 }, () => reads.read('v'));
    expect(source.reads).toBe(1);
    source.pending.shift()?.();
    expect(await first).toEqual({ version: 1 });
    await new Promise((r) => setImmediate(r));
    expect(source.reads).toBe(2);
    source.pending.shift()?.();
    expect((await Promise.all(during)).every((s) => s.version === 2)).toBe(true);
    expect(source.reads).toBe(2);
  });
});
