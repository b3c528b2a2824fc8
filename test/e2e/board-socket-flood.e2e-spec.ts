import { BOARD_SOCKETS_PER_USER } from '@hostboard/board';
import { BoardClient, waitFor } from '../support/board-client.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { createVenue, signUp, type Staff } from '../support/staff.js';

/**
 * One staff login opening board sockets by the hundred (a script, not a tablet): each was kept, on
 * the process's memory, for as long as the login lived. Past BOARD_SOCKETS_PER_USER open at once on
 * a process, a handshake is refused (TOO_MANY_BOARDS, which the board page tries again later, as it
 * does UNAVAILABLE); a socket that closes frees its place; another login is not affected.
 */
describe('board sockets per login', () => {
  let t: TestApp;
  let flooder: Staff;
  let neighbour: Staff;
  let venueId: string;
  const clients: BoardClient[] = [];
  const open = (staff: Staff): BoardClient => {
    const c = new BoardClient(t.baseUrl, staff.token);
    clients.push(c);
    return c;
  };

  beforeAll(async () => {
    t = await startApp();
    flooder = await signUp(t, 'socket-flooder');
    neighbour = await signUp(t, 'socket-neighbour');
    venueId = (await createVenue(t, flooder)).id;
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await t.close();
  });

  it('refuses the handshakes past the limit, all at once or one by one; a closed socket frees its place', async () => {
    expect(BOARD_SOCKETS_PER_USER).toBeGreaterThanOrEqual(16);
    // Three times the limit, all at once: the handshakes race each other past the session read.
    const burst = Array.from({ length: BOARD_SOCKETS_PER_USER * 3 }, () => open(flooder));
    const outcomes = await Promise.allSettled(burst.map((c) => c.connected()));
    const kept = burst.filter((_, i) => outcomes[i]?.status === 'fulfilled');
    const refusals = outcomes.flatMap((o) => (o.status === 'rejected' ? [(o.reason as Error).message] : []));
    expect({ kept: kept.length, refusals: new Set(refusals) }).toEqual({
      kept: BOARD_SOCKETS_PER_USER,
      refusals: new Set(['TOO_MANY_BOARDS']),
    });
    // The sockets kept still work.
    expect(await kept[0]!.subscribe(venueId)).toHaveProperty('snapshot');
    // One more, later: refused too.
    expect(await open(flooder).refused()).toBe('TOO_MANY_BOARDS');
    // Another login opens its board as ever.
    await open(neighbour).connected();
    // A closed socket frees its place (the server hears of it a moment later).
    kept[1]!.close();
    let again = open(flooder);
    await waitFor(() => kept[1]!.socket.disconnected, 2000, 'the close');
    for (let i = 0; i < 20; i++) {
      const answer = await again.connected().then(
        () => 'connected',
        (e: Error) => e.message,
      );
      if (answer === 'connected') break;
      expect(answer).toBe('TOO_MANY_BOARDS');
      await new Promise((r) => setTimeout(r, 100));
      again = open(flooder);
    }
    expect(again.socket.connected).toBe(true);
    expect(await open(flooder).refused()).toBe('TOO_MANY_BOARDS');
  });
});
