import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { BoardPush, BoardSnapshot, JoinResult, QueueRow, TableRow } from '../api/types';
import { BarLabel } from '../components/bar-label';
import { ConfirmedGroups } from '../components/confirmed-groups';
import { ConnectionBadge } from '../components/connection-badge';
import { DeskJoin } from '../components/desk-join';
import { DeskLookup } from '../components/desk-lookup';
import { EntrySheet } from '../components/entry-sheet';
import { FloorMap } from '../components/floor-map';
import { PoolPanel } from '../components/pool-panel';
import { QueuePanel } from '../components/queue-panel';
import { SandboxClock } from '../components/sandbox-clock';
import { boardWords } from '../words';
import { SweepButton } from '../components/sweep-button';
import { TablePicker, type TablePurpose } from '../components/table-picker';
import { TableSheet } from '../components/table-sheet';
import { tableLabels, ToSeatPanel } from '../components/to-seat-panel';
import { TokenCard } from '../components/token-card';
import { useMeasured } from '../components/use-measured';
import { localTime, waitShort } from '../format';
import { joinWarnings } from '../readiness';
import { BoardSync, venueNow } from '../state/board-sync';
import { wallSecond } from '../state/clock';
import { chime, say } from '../state/notice';
import { offline } from '../state/offline';
import { takeOwn } from '../state/own-acts';
import { atLeast } from '../state/role';
import { api, session } from '../state/session';
import type { TabProps } from './registry';

type Sheet =
  | { kind: 'join' }
  | { kind: 'token'; name: string; quote?: string; token: string | null }
  | { kind: 'lookup' }
  | { kind: 'tables'; purpose: TablePurpose }
  | { kind: 'table'; tableId: string }
  | { kind: 'entry'; entryId: string }
  | null;

/** Board events that change what the venue is set up with (re-read for the floor plan and warnings). */
const SETUP_EVENTS = /^(table|combination|service-window|venue)\./;

/** One venue's live floor: the queue, the tables or seats, and the desk's acts in a bar that stays in reach. */
export function BoardView({ venueId, data, role }: TabProps) {
  const sync = useMemo(() => new BoardSync(api, venueId, session.value?.token ?? ''), [venueId]);
  const [sheet, setSheet] = useState<Sheet>(null);
  const [openedEntryId, setOpenedEntryId] = useState<string | null>(null);
  useEffect(() => {
    sync.onEvent = (e, before) => {
      if (e.type === 'offer.expired') {
        const entryId = e.data?.['entryId'];
        const name = sync.nameOf(entryId) ?? 'A party';
        const back = e.data?.['entryStatus'] === 'waiting';
        // A seat pool (a workshop) holds seats for a group: it offers no table (its rows say held).
        say(
          'alert',
          `The ${boardWords(before?.venue.seating).ranOut(name)} ran out. ${back ? 'They are back in line.' : 'They have left the queue.'}`,
        );
        chime();
      }
      const said = partyNotice(e, before, (id) => sync.nameOf(id));
      if (said) say('info', said);
      if (e.type && SETUP_EVENTS.test(e.type)) void data.reload();
    };
    return () => {
      sync.onEvent = null;
      sync.close();
      offline.value = false;
    };
  }, [sync, data]);
  const connection = sync.connection.value;
  offline.value = connection !== 'live';
  const board = sync.board.value;
  const ended = sync.ended.value;
  const readAt = sync.readAt.value;
  const now = (b: BoardSnapshot) => (wall: number) => venueNow(b, readAt, wall);
  const afterAct = () => sync.refresh();
  const venue = data.venue.value;
  // The venue's policy once read; until then a seat pool's default (its withdrawn group leaves the queue).
  const leavesQueue = venue ? venue.policy.onOfferExpired === 'leave-queue' : board?.venue.seating === 'pool';
  const entryOf = (id: string): QueueRow | undefined => board?.queue.find((r) => r.id === id);
  // The party whose sheet is open, as the queue last listed it: once the queue no longer lists it
  // (another screen removed or seated it, it accepted or left on its phone) the sheet stays and says
  // so. It vanished, with what the host was typing, and nothing said why.
  const entrySeen = useRef<QueueRow | null>(null);
  const entryListed = sheet?.kind === 'entry' ? entryOf(sheet.entryId) : undefined;
  if (entryListed) entrySeen.current = entryListed;
  const entryShown =
    entryListed ?? (sheet?.kind === 'entry' && entrySeen.current?.id === sheet.entryId ? entrySeen.current : undefined);
  // The board the Add to queue sheet was opened on: access ending while a party is being typed
  // drops the board, and the sheet went with it, what was typed and all, without a word. It stays,
  // saying the party was not added.
  const joinBoard = useRef<BoardSnapshot | null>(null);
  if (board) joinBoard.current = board;
  else if (!ended || sheet?.kind !== 'join') joinBoard.current = null;
  const joinOn = joinBoard.current;
  const tableOf = (id: string): TableRow | undefined => board?.tables.find((t) => t.id === id);
  // The table whose sheet is open, as the floor last listed it: a manager retiring it on another
  // screen drops it from the floor, and the sheet stays and says so (it vanished, with the walk-in
  // name the host was typing, and nothing said why).
  const tableSeen = useRef<TableRow | null>(null);
  const tableListed = sheet?.kind === 'table' ? tableOf(sheet.tableId) : undefined;
  if (tableListed) tableSeen.current = tableListed;
  const tableShown =
    tableListed ?? (sheet?.kind === 'table' && tableSeen.current?.id === sheet.tableId ? tableSeen.current : undefined);
  // The page keeps room for the action bar as tall as it is (on a narrow phone its buttons wrap).
  const [barRef, barHeight] = useMeasured(0, (el) => Math.ceil(el.getBoundingClientRect().height));
  useEffect(() => {
    if (barHeight <= 0) return undefined;
    document.documentElement.style.setProperty('--bar-h', `${barHeight}px`);
    return () => document.documentElement.style.removeProperty('--bar-h');
  }, [barHeight]);

  return (
    <>
      <div class="status-line">
        <ConnectionBadge state={connection} />
        {sync.problem.value && (
          <span class="error" role="alert" data-testid="sync-problem">
            {sync.problem.value}
          </span>
        )}
      </div>
      {ended ? (
        // Removed from the staff: the status line above says so; the queue, the floor and the desk's
        // acts are gone from this screen, not frozen on it.
        <main class="page" data-testid="access-ended">
          <p class="muted">The queue and the tables are no longer shown here. Reload this page if a manager adds you back.</p>
        </main>
      ) : !board ? (
        <main class="page">
          <p class="muted">Loading the board…</p>
        </main>
      ) : (
        <main class={`board seating-${board.venue.seating}`} data-testid="board" data-version={board.version}>
          {venue && <JoinWarnings data={data} role={role} venueNow={now(board)} />}
          {/* Who is on the way to a table comes first, then who waits for one (one column on a phone). */}
          <div class="lists">
            <ToSeatPanel
              board={board}
              venueNow={now(board)}
              afterAct={afterAct}
              onNewToken={(name, token) => setSheet({ kind: 'token', name, token })}
            />
            <QueuePanel
              board={board}
              venueNow={now(board)}
              openedEntryId={openedEntryId}
              afterAct={afterAct}
              onOfferTables={(row) =>
                setSheet({
                  kind: 'tables',
                  purpose: {
                    kind: 'offer',
                    entryId: row.id,
                    entryVersion: row.version,
                    name: row.name,
                    partySize: row.partySize,
                  },
                })
              }
              onDetails={(row) => setSheet({ kind: 'entry', entryId: row.id })}
              leavesQueue={leavesQueue}
            />
          </div>
          <div class="side">
            <PoolPanel board={board} afterAct={afterAct} />
            <ConfirmedGroups board={board} afterAct={afterAct} />
            {board.venue.seating === 'tables' && (
              <FloorMap
                board={board}
                combinations={data.combinations.value}
                venueNow={now(board)}
                onTable={(t) => setSheet({ kind: 'table', tableId: t.id })}
              />
            )}
            {board.venue.sandbox && atLeast(role, 'manager') && <SandboxClock board={board} afterAct={afterAct} />}
          </div>
        </main>
      )}
      {!ended && (
        <nav class="action-bar" aria-label="Desk" ref={barRef}>
          <button
            type="button"
            class="btn btn-primary big"
            data-testid="open-join"
            disabled={!board || offline.value}
            onClick={() => setSheet({ kind: 'join' })}
          >
            <BarLabel first="Add to" second="queue" />
          </button>
          <button
            type="button"
            class="btn btn-secondary big"
            data-testid="open-lookup"
            disabled={!board || offline.value}
            onClick={() => setSheet({ kind: 'lookup' })}
          >
            <BarLabel first="Find by" second="code" />
          </button>
          {board && (
            <SweepButton venueId={board.venue.id} seating={board.venue.seating} disabled={offline.value} afterAct={afterAct} />
          )}
        </nav>
      )}
      {joinOn && sheet?.kind === 'join' && (
        <DeskJoin
          board={joinOn}
          ended={ended}
          // null: the venue has no country; undefined: it is still being read.
          country={venue ? (venue.country ?? null) : undefined}
          cap={venue?.queuePartyCap}
          onClose={() => setSheet(null)}
          onJoined={(joined: JoinResult) => {
            setSheet({
              kind: 'token',
              name: joined.entry.name,
              quote: plainQuote(joined, joinOn.venue.timeZone),
              token: joined.queueToken,
            });
            void afterAct();
          }}
        />
      )}
      {board && sheet?.kind === 'tables' && (
        <TablePicker
          board={board}
          combinations={data.combinations.value}
          purpose={sheet.purpose}
          afterAct={afterAct}
          onClose={() => setSheet(null)}
        />
      )}
      {board && sheet?.kind === 'table' && tableShown && (
        <TableSheet
          board={board}
          table={tableShown}
          gone={!tableListed}
          venueNow={now(board)}
          afterAct={afterAct}
          leavesQueue={leavesQueue}
          onClose={() => setSheet(null)}
          onMove={(reservationId, name, current) =>
            setSheet({
              kind: 'tables',
              purpose: { kind: 'move', reservationId, name, current, partySize: tableOf(sheet.tableId)?.placement?.partySize },
            })
          }
        />
      )}
      {board && sheet?.kind === 'entry' && entryShown && (
        <EntrySheet
          board={board}
          row={entryShown}
          gone={
            entryListed
              ? undefined
              : boardWords(board.venue.seating).entryGone(
                  entryShown.name,
                  (board.toSeat ?? []).some((p) => p.entryId === entryShown.id),
                )
          }
          country={venue?.country}
          cap={venue?.queuePartyCap}
          afterAct={afterAct}
          onClose={() => setSheet(null)}
          onNewToken={(name, token) => setSheet({ kind: 'token', name, token })}
        />
      )}
      {!ended && sheet?.kind === 'token' && (
        <TokenCard
          name={sheet.name}
          quote={sheet.quote}
          token={sheet.token}
          queuePage={board?.queuePage}
          who={boardWords(board?.venue.seating).who}
          onDone={() => setSheet(null)}
        />
      )}
      {board && sheet?.kind === 'lookup' && (
        <DeskLookup
          board={board}
          venueNow={now(board)}
          onFound={setOpenedEntryId}
          afterAct={afterAct}
          onClose={() => setSheet(null)}
        />
      )}
    </>
  );
}

/**
 * What the host should hear of a party's own act, or another tablet's acceptance: a party that
 * confirmed its table (it leaves the queue list for "To be seated"), or one that left from its phone.
 * Acts of this page are already confirmed by their own toast.
 */
function partyNotice(
  e: BoardPush,
  before: BoardSnapshot | null,
  nameOf: (entryId: unknown) => string | undefined,
): string | null {
  const d = e.data ?? {};
  const text = (k: string): string | undefined => {
    const v = d[k];
    return typeof v === 'string' ? v : undefined;
  };
  const entryId = text('entryId');
  const name = text('name') ?? nameOf(entryId) ?? 'A party';
  if (e.type === 'offer.accepted') {
    if (text('by') !== 'party' && takeOwn(`accept:${text('offerId') ?? ''}`)) return null;
    const ids = Array.isArray(d['tableIds'])
      ? (d['tableIds'] as string[])
      : (before?.offers.find((o) => o.id === text('offerId'))?.tableIds ?? []);
    const tables = before && ids.length > 0 ? tableLabels(before, ids) : '';
    const where = tables ? `: ${ids.length > 1 ? 'tables' : 'table'} ${tables}, to be seated.` : ', to be seated.';
    return boardWords(before?.venue.seating).confirmedBy(name, where);
  }
  if (e.type === 'tables.day-ended') return dayEndedNotice(d['tableIds'], before);
  const left = e.type === 'entry.cancelled' || e.type === 'offer.cancelled' || e.type === 'reservation.cancelled';
  if (left && text('by') === 'party') {
    const released = e.type === 'entry.cancelled' ? '' : boardWords(before?.venue.seating).leftFreed;
    return `${name} left the queue from their phone.${released}`;
  }
  return null;
}

/**
 * Tables an earlier day's parties still held (never seated, cleared or marked a no-show), freed by
 * the server when today's service opened: the host sees them turn free and is told why.
 */
function dayEndedNotice(tableIds: unknown, before: BoardSnapshot | null): string {
  const ids = Array.isArray(tableIds) ? (tableIds as string[]) : [];
  // In the order a host counts them (T2 before T10), not the ids' order the event carries.
  const labels = ids
    .map((id) => before?.tables.find((t) => t.id === id)?.label)
    .filter((l): l is string => !!l)
    .sort((a, b) => a.localeCompare(b, undefined, { numeric: true }));
  const one = labels.length === 1;
  const named = labels.length === 0 ? 'Tables' : `${one ? 'Table' : 'Tables'} ${labels.join(', ')}`;
  return `${named} ${one ? 'was' : 'were'} still taken from an earlier day and ${one ? 'is' : 'are'} free again: today's service has started.`;
}

/**
 * "Number 3 in line, quoted ~100 min (approx)": the spec's quote with the "approx" marker, the wait in
 * the words of the party's text and the board's row (waitShort); when the wait runs past the end of
 * service, the warning the party's email gives too, so the host says what it will read.
 */
function plainQuote(j: JoinResult, timeZone: string): string {
  const wait = typeof j.quotedWaitMinutes === 'number' ? `, quoted ~${waitShort(j.quotedWaitMinutes)} (approx)` : '';
  const end =
    j.pastServiceEnd && j.serviceEndsAt
      ? ` Service ends at ${localTime(j.serviceEndsAt, timeZone)}, before this wait is over: we may not be able to seat them.`
      : '';
  return `Number ${j.position} in line${wait}.${end}`;
}

/**
 * Why a join would be refused now (no service window running, no table that seats anyone, …). Its
 * own component, so that the clock it reads re-renders this notice each second, not the board.
 */
function JoinWarnings({ data, role, venueNow }: Pick<TabProps, 'data' | 'role'> & { venueNow: (wall: number) => number }) {
  const narrow = useNarrow();
  const venue = data.venue.value;
  if (!venue) return null;
  const warnings = joinWarnings(
    venue,
    data.tables.value,
    data.combinations.value,
    data.windows.value,
    data.serviceRunsAt(venueNow(wallSecond.value)),
  );
  if (warnings.lines.length === 0) return null;
  // On a phone the banner took five lines atop the board: there it is one or two, its reasons in a
  // few words, the whole of them (and where to fix them) a tap away.
  if (narrow)
    return (
      <details class="warnings warnings-short" aria-live="polite" data-testid="join-warnings">
        <summary>
          <strong>{warnings.short}</strong> {warnings.shorts.join('; ')}
        </summary>
        <ul>
          {warnings.lines.map((w) => (
            <li key={w}>{w}</li>
          ))}
        </ul>
        {atLeast(role, 'manager') && <span class="muted">Fix it under Set up.</span>}
      </details>
    );
  return (
    <section class="warnings" role="status" data-testid="join-warnings">
      <strong>{warnings.heading}</strong>
      <ul>
        {warnings.lines.map((w) => (
          <li key={w}>{w}</li>
        ))}
      </ul>
      {atLeast(role, 'manager') && <span class="muted">Fix it under Set up.</span>}
    </section>
  );
}

const NARROW = '(max-width: 640px)';

/** Whether the screen is a phone's width (a phone held upright), following a turn of the screen. */
function useNarrow(): boolean {
  const [narrow, setNarrow] = useState(() => window.matchMedia(NARROW).matches);
  useEffect(() => {
    const q = window.matchMedia(NARROW);
    const on = (): void => setNarrow(q.matches);
    q.addEventListener('change', on);
    on();
    return () => q.removeEventListener('change', on);
  }, []);
  return narrow;
}
