import { useEffect, useRef, useState } from 'preact/hooks';
import { messageOf, nextLink } from '../api/client';
import type { BoardSnapshot, ReservationRow } from '../api/types';
import { localDayTime, plural } from '../format';
import { say } from '../state/notice';
import { api } from '../state/session';
import { ActButton } from './act-button';

/** Pages of confirmed reservations read at most (500 each, newest first). */
const MAX_PAGES = 20;

/** Every confirmed group of a seat pool, oldest confirmation first, following the list's pages. */
async function readConfirmed(venueId: string): Promise<ReservationRow[]> {
  const found: ReservationRow[] = [];
  let path: string | null = `/v1/venues/${venueId}/reservations?state=CONFIRMED&limit=500`;
  for (let page = 0; path && page < MAX_PAGES; page++) {
    let next: string | null = null;
    const rows: ReservationRow[] = await api.get<ReservationRow[]>(path, {
      onHeaders: (h) => (next = nextLink(h.get('Link'))),
    });
    found.push(...rows.filter((r) => r.state === 'CONFIRMED' && r.kind === 'pool'));
    path = next;
  }
  // Then by id: groups confirmed at one instant (a practice clock stands still) are listed in one
  // order on every device, not in whatever order the page read them.
  const at = (r: ReservationRow): number => Date.parse(r.confirmedAt ?? r.updatedAt);
  return found.sort((a, b) => at(a) - at(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/**
 * A workshop's confirmed groups (the guide: "Release a held or confirmed group's seats once"), each
 * with a Cancel that asks for a second tap. The list is read again whenever the board's version
 * moves (another device accepts or cancels), so it follows the counts above it.
 */
export function ConfirmedGroups({ board, afterAct }: { board: BoardSnapshot; afterAct: () => Promise<void> }) {
  const venueId = board.venue.id;
  const [groups, setGroups] = useState<ReservationRow[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  // Only the newest read may set the list (an older answer arriving late is dropped).
  const reads = useRef(0);
  const pool = board.venue.seating === 'pool';
  useEffect(() => {
    if (!pool) return;
    const read = ++reads.current;
    readConfirmed(venueId).then(
      (rows) => {
        if (read !== reads.current) return;
        setGroups(rows);
        setProblem(null);
      },
      (err: unknown) => {
        if (read === reads.current) setProblem(messageOf(err));
      },
    );
  }, [venueId, board.version, pool]);
  if (!pool) return null;

  const cancel = async (g: ReservationRow): Promise<void> => {
    const r = await api.post<{ reservation: ReservationRow; released?: boolean }>(
      `/v1/venues/${venueId}/reservations/${g.id}/cancel`,
    );
    setGroups((list) => list?.filter((x) => x.id !== g.id) ?? null);
    const seats = plural(g.partySize, 'seat');
    const are = g.partySize === 1 ? 'is' : 'are';
    // Another device (or the group on its phone) cancelled it first: this tap released nothing.
    if (r.released === false)
      say(
        'info',
        r.reservation.state === 'CANCELLED'
          ? `The booking for ${g.name} had already been cancelled; ${seats} ${g.partySize === 1 ? 'was' : 'were'} already free.`
          : `The booking for ${g.name} was no longer confirmed; nothing changed.`,
      );
    else say('ok', `Booking for ${g.name} cancelled; ${seats} ${are} free again.`);
    await afterAct();
  };

  return (
    <section class="panel confirmed-groups" aria-label="Confirmed groups" data-testid="confirmed-groups">
      <h2>Confirmed groups {groups && <span class="muted">({groups.length})</span>}</h2>
      {problem && (
        <p class="error" role="alert">
          {problem}
        </p>
      )}
      {groups === null ? (
        !problem && <p class="muted">Reading the confirmed groups…</p>
      ) : groups.length === 0 ? (
        <p class="muted" data-testid="confirmed-none">
          No group has confirmed seats.
        </p>
      ) : (
        <ol class="rows">
          {groups.map((g) => (
            <li class="row" key={g.id} data-testid="confirmed-group" data-reservation-id={g.id}>
              <div class="pos" aria-hidden="true">
                ✓
              </div>
              <div class="who">
                <div class="name">
                  <bdi>{g.name}</bdi> <span class="size">group of {g.partySize}</span>
                </div>
                <div class="meta">Confirmed {localDayTime(g.confirmedAt ?? g.updatedAt, board.venue.timeZone)}</div>
              </div>
              <div class="acts">
                <ActButton
                  testId="confirmed-cancel"
                  confirm={`Tap again: releases ${plural(g.partySize, 'seat')}`}
                  onAct={() => cancel(g)}
                >
                  Cancel booking
                </ActButton>
              </div>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
