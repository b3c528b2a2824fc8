import { useEffect, useMemo, useState } from 'preact/hooks';
import type { BoardSnapshot, JoinResult } from '../api/types';
import { ConnectionBadge } from '../components/connection-badge';
import { DeskJoin } from '../components/desk-join';
import { NoticeBar } from '../components/notice-bar';
import { PoolPanel } from '../components/pool-panel';
import { QueuePanel } from '../components/queue-panel';
import { RedeemDesk } from '../components/redeem-desk';
import { SandboxClock } from '../components/sandbox-clock';
import { TablePicker, type TablePurpose } from '../components/table-picker';
import { TablesPanel } from '../components/tables-panel';
import { TokenCard } from '../components/token-card';
import { TopBar } from '../components/top-bar';
import { BoardSync, venueNow } from '../state/board-sync';
import { api, session } from '../state/session';

type Sheet =
  | { kind: 'join' }
  | { kind: 'token'; joined: JoinResult }
  | { kind: 'redeem' }
  | { kind: 'tables'; purpose: TablePurpose }
  | null;

/** One venue's live board: the queue, the seats or tables, and the desk's acts. */
export function BoardView({ venueId }: { venueId: string }) {
  const sync = useMemo(() => new BoardSync(api, venueId, session.value?.token ?? ''), [venueId]);
  useEffect(() => () => sync.close(), [sync]);
  const [sheet, setSheet] = useState<Sheet>(null);
  const [openedEntryId, setOpenedEntryId] = useState<string | null>(null);
  const board = sync.board.value;
  const readAt = sync.readAt.value;
  const now = (b: BoardSnapshot) => (wall: number) => venueNow(b, readAt, wall);
  const afterAct = () => sync.refresh();

  return (
    <>
      <TopBar title={board?.venue.name ?? 'Board'} venueId={venueId} current="board">
        <ConnectionBadge state={sync.connection.value} version={board?.version ?? null} />
      </TopBar>
      <NoticeBar extra={sync.problem.value} />
      {!board ? (
        <main class="board">
          <p class="muted">Loading the board…</p>
        </main>
      ) : (
        <main class="board" data-testid="board" data-version={board.version}>
          <QueuePanel
            board={board}
            venueNow={now(board)}
            openedEntryId={openedEntryId}
            afterAct={afterAct}
            onOfferTables={(row) =>
              setSheet({
                kind: 'tables',
                purpose: { kind: 'offer', entryId: row.id, entryVersion: row.version, name: row.name, partySize: row.partySize },
              })
            }
          />
          <aside class="side">
            <div class="desk-acts">
              <button
                type="button"
                class="btn btn-primary big"
                data-testid="open-join"
                onClick={() => setSheet({ kind: 'join' })}
              >
                Join at the desk
              </button>
              <button
                type="button"
                class="btn btn-secondary big"
                data-testid="open-redeem"
                onClick={() => setSheet({ kind: 'redeem' })}
              >
                Redeem at the desk
              </button>
            </div>
            <PoolPanel board={board} afterAct={afterAct} />
            <TablesPanel
              board={board}
              venueNow={now(board)}
              afterAct={afterAct}
              onMove={(reservationId, name, current) =>
                setSheet({ kind: 'tables', purpose: { kind: 'move', reservationId, name, current } })
              }
            />
            {board.venue.sandbox && <SandboxClock board={board} afterAct={afterAct} />}
          </aside>
        </main>
      )}
      {board && sheet?.kind === 'join' && (
        <DeskJoin
          board={board}
          onClose={() => setSheet(null)}
          onJoined={(joined) => {
            setSheet({ kind: 'token', joined });
            void afterAct();
          }}
        />
      )}
      {board && sheet?.kind === 'tables' && (
        <TablePicker board={board} purpose={sheet.purpose} afterAct={afterAct} onClose={() => setSheet(null)} />
      )}
      {sheet?.kind === 'token' && <TokenCard joined={sheet.joined} queuePage={board?.queuePage} onClose={() => setSheet(null)} />}
      {board && sheet?.kind === 'redeem' && (
        <RedeemDesk
          board={board}
          venueNow={now(board)}
          onOpened={setOpenedEntryId}
          afterAct={afterAct}
          onClose={() => setSheet(null)}
        />
      )}
    </>
  );
}
