import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiClient, ApiError, messageOf } from '../../board/src/api/client';
import {
  loadCredentials,
  newExchangeKey,
  sameLink,
  saveCredentials,
  saveOwnCredentials,
  takeTokenFromFragment,
  withStored,
  type Credentials,
} from './credentials';
import { deadlineTime } from './deadline';
import { Countdown, useTimeLeft } from './countdown';
import { BackInQueue, DAY_CLOSED, OutOfQueue } from './offer-ended';
import type { OpenedSession, PartyView } from './types';
import { wordsFor, type Words } from './words';
import { readWallClock } from './wall-clock';

/** How often the page asks where the party stands (an offer shows up within this). */
const POLL_MS = 3_000;

/** The party has no staff token; the shared client sends its queue session when it has one. */
const api = new ApiClient(
  () => null,
  () => undefined,
);

/**
 * `final`: the page shows the answer and stops reading: the party left (its session ended with its
 * entry), or it is seated (nothing later changes that, and its session ends while it dines).
 */
type Shown =
  | { kind: 'deciding' }
  | { kind: 'choose'; mine: PartyView; theirs: PartyView; token: string }
  | { kind: 'loading' }
  | { kind: 'no-link' }
  | { kind: 'gone' }
  | { kind: 'left' }
  | { kind: 'day-closed' }
  | { kind: 'view'; view: PartyView; readAt: number; final?: boolean };

const isGone = (err: unknown): boolean => err instanceof ApiError && err.code === 'TOKEN_INVALID';
/** The link ended with its business day, while the party still waited: the day's queue closed (docs/api-additions.md). */
const isDayClosed = (err: unknown): boolean => isGone(err) && (err as ApiError).details['reason'] === 'day-closed';
/** The entry is out of the queue by its day's close: nothing later opens it again. */
const closedWithDay = (view: PartyView): boolean => view.entry.status === 'expired' && view.outReason === 'day-closed';

/** A party still in the queue or expected at its table: its page is worth keeping. */
const ACTIVE = new Set(['waiting', 'offered', 'confirmed']);

/** Where the party stands: by its session once it has one, else by its token without spending it. */
async function viewOf(c: Credentials): Promise<PartyView | null> {
  if (c.session) return api.get<PartyView>('/v1/queue-session', { queueSession: c.session.sessionToken });
  if (c.token) return api.post<PartyView>('/v1/queue-status', { token: c.token }, { idempotencyKey: undefined });
  return null;
}

/**
 * The party's queue page. While the party waits it reads its entry by the token without spending
 * it (POST /v1/queue-status); only an act (confirm, leave) exchanges the token for the 60-minute
 * session, which later reads and acts use. When neither works any more, it says how to get a new link.
 */
const LEAVE = '/v1/queue-session/leave';
const ACCEPT = '/v1/queue-session/accept';

export function App() {
  const arrival = useRef(takeTokenFromFragment());
  const creds = useRef<Credentials>(arrival.current.kept);
  const [shown, setShown] = useState<Shown>(() =>
    arrival.current.incoming
      ? { kind: 'deciding' }
      : creds.current.token || creds.current.session
        ? { kind: 'loading' }
        : { kind: 'no-link' },
  );
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [askLeave, setAskLeave] = useState(false);

  /**
   * What this tab learned about its own link, kept on the phone only while the phone still keeps that
   * link (another tab may have followed a newer one since); `follow` takes a link over, as the one
   * opened last.
   */
  const keep = (c: Credentials): void => {
    creds.current = saveOwnCredentials(creds.current, c);
  };
  /**
   * Reads and acts are numbered as they begin. A read's answer is shown only if nothing begun after
   * it was shown first: a poll on its way while the party tapped Confirm came back after the
   * confirmation and put the offer back on the page, or (its token spent by the tap meanwhile) said
   * "This link no longer works" and stopped reading.
   */
  const begun = useRef(0);
  const onScreen = useRef(0);
  /** What is shown from now on supersedes every read begun before (an act, another link). */
  const supersede = (): void => {
    onScreen.current = ++begun.current;
  };
  /**
   * The session another tab opened with this tab's own link (the party confirmed or left there): the
   * token this tab read by is spent, so it said "This link no longer works" and stopped, or refused
   * a tap, over a place that was fine. Taken in from the phone's storage; false when there is none.
   */
  const adopted = (): boolean => {
    const stored = loadCredentials();
    if (creds.current.session || !stored.session || !creds.current.token || !sameLink(stored, creds.current)) return false;
    creds.current = withStored(creds.current, stored);
    return true;
  };
  /** From now on this phone follows the entry of `token` (a link it was given). */
  const follow = (token: string): void => {
    creds.current = { token, session: null };
    saveCredentials(creds.current);
    supersede();
    setShown({ kind: 'loading' });
  };

  /**
   * A refused act (an offer that lapsed just before the party's tap) stays on screen until the next
   * act or until the party's state changes again (a new offer): the page then reads as plain
   * waiting, which alone explains nothing. A failed poll's problem clears at the next poll that works.
   */
  const refusal = useRef<{ status?: string } | null>(null);
  const read = useCallback(async (): Promise<void> => {
    const n = ++begun.current;
    const used = creds.current;
    try {
      const view = await viewOf(used);
      if (n < onScreen.current) return;
      onScreen.current = n;
      if (!view) return setShown({ kind: 'no-link' });
      // Kept with the link, so a page that can no longer read the entry still speaks the venue's words
      // and names it (a link that ended reads nothing, not even the venue).
      if ((view.venue.seating && view.venue.seating !== creds.current.seating) || view.venue.name !== creds.current.venueName)
        keep({ ...creds.current, ...(view.venue.seating && { seating: view.venue.seating }), venueName: view.venue.name });
      // Seated is the end of the party's way through the queue: nothing read later can change it, and
      // the session its confirm opened ends within the hour, while it is still at its table. A page
      // that kept reading then said "This link no longer works … Ask at the desk for a new code".
      // So is a place the day's close ended: a page left open past midnight read on until its session
      // ran out, then said "This link no longer works"; kept, so the page opened later says it too.
      if (closedWithDay(view) && !creds.current.dayClosed) keep({ ...creds.current, dayClosed: true });
      setShown({
        kind: 'view',
        view,
        readAt: readWallClock(),
        ...((view.entry.status === 'seated' || closedWithDay(view)) && { final: true }),
      });
      const kept = refusal.current;
      if (kept && kept.status === undefined) kept.status = view.entry.status;
      else if (!kept || kept.status !== view.entry.status) {
        refusal.current = null;
        setProblem(null);
      }
    } catch (err) {
      if (n < onScreen.current) return;
      // The token was spent by this phone's own act meanwhile (it opened the session the next read uses).
      if (isGone(err) && !used.session && creds.current.session) return;
      // Or in another tab on the same link: read again at once by the session it opened.
      if (isGone(err) && !used.session && adopted()) return void read();
      // Or by this phone's own exchange whose answer was lost: asked again, it opens the session.
      if (isGone(err) && !used.session && used.token === creds.current.token && (await reopened())) {
        if (n >= onScreen.current) void read();
        return;
      }
      if (n < onScreen.current) return;
      // A party that left from this phone reads that it left, not that its link stopped working; one
      // whose link ended with the day's queue reads that the queue closed.
      if (isGone(err)) {
        onScreen.current = n;
        if (isDayClosed(err) && !creds.current.dayClosed) keep({ ...creds.current, dayClosed: true });
        setShown({ kind: creds.current.left ? 'left' : creds.current.dayClosed ? 'day-closed' : 'gone' });
      }
      // Many phones on one venue wifi share an address and its limit: a refused poll just waits for the next.
      else if (!(err instanceof ApiError && err.code === 'RATE_LIMITED')) setProblem(messageOf(err));
    }
  }, []);

  /**
   * A link for another entry than the one this phone keeps: followed at once when the kept one is
   * over (left, seated, a link the desk replaced) or is the same party; asked when both are live
   * (a link someone sent could otherwise take the party's own place off its phone); ignored when
   * it opens nothing, unless the kept one has ended too: the page is then about the link just opened,
   * which reads nothing, not even its venue, so the kept venue's name must not stand over it.
   */
  const decide = async (incoming: string): Promise<void> => {
    const ended = (err: unknown): 'ended' | null => (isGone(err) ? 'ended' : null);
    const [theirs, mine] = await Promise.all([
      viewOf({ token: incoming, session: null }).catch(ended),
      viewOf(creds.current).catch(ended),
    ]);
    if (theirs === 'ended' && mine === 'ended') follow(incoming);
    else if (!theirs || theirs === 'ended')
      setShown({ kind: creds.current.token || creds.current.session ? 'loading' : 'no-link' });
    else if (!mine || mine === 'ended' || !ACTIVE.has(mine.entry.status) || mine.entry.id === theirs.entry.id) follow(incoming);
    else setShown({ kind: 'choose', mine, theirs, token: incoming });
  };
  useEffect(() => {
    const incoming = arrival.current.incoming;
    if (incoming) void decide(incoming);
  }, []);

  /**
   * A link opened in the tab that already shows this page (the text's plain /q/ link was tapped
   * first, then the desk's code) changes only the fragment: the page is not loaded again, so it
   * takes the link here as it does on arrival, and wipes it from the address bar.
   */
  useEffect(() => {
    const onLink = (): void => {
      if (window.location.hash.replace(/^#/, '').trim() === '') return;
      const arrived = takeTokenFromFragment();
      creds.current = arrived.kept;
      supersede();
      refusal.current = null;
      setProblem(null);
      setAskLeave(false);
      if (arrived.incoming) {
        setShown({ kind: 'deciding' });
        void decide(arrived.incoming);
      } else setShown({ kind: 'loading' });
    };
    window.addEventListener('hashchange', onLink);
    return () => window.removeEventListener('hashchange', onLink);
  }, []);

  const final = shown.kind === 'view' && shown.final === true;
  useEffect(() => {
    if (
      shown.kind === 'no-link' ||
      shown.kind === 'gone' ||
      shown.kind === 'left' ||
      shown.kind === 'day-closed' ||
      shown.kind === 'deciding' ||
      shown.kind === 'choose' ||
      final
    )
      return;
    if (shown.kind === 'loading') void read();
    const timer = window.setInterval(() => void read(), POLL_MS);
    const onVisible = (): void => {
      if (document.visibilityState === 'visible') void read();
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      window.clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [shown.kind, final, read]);

  /**
   * The session, opening it with the token on the first act (a token opens one session, once). The
   * exchange carries this phone's key for the token, kept before it is sent: when its answer is lost
   * (a weak signal), the same exchange asked again, by the next tap or the next read, opens the same
   * session, where the spent token alone was refused and locked the party out of its own place.
   */
  const session = async (): Promise<string> => {
    const kept = creds.current.session ?? (adopted() ? creds.current.session : null);
    if (kept) return kept.sessionToken;
    const token = creds.current.token;
    if (!token) throw new ApiError(401, 'TOKEN_INVALID', 'This link no longer works.');
    const key = creds.current.key ?? newExchangeKey();
    if (creds.current.key !== key) keep({ ...creds.current, key });
    const opened = await api.post<OpenedSession>('/v1/queue-sessions', { token, key }, { idempotencyKey: undefined });
    if (!opened.sessionToken) throw new ApiError(401, 'TOKEN_INVALID', 'This link no longer works.');
    keep({ ...creds.current, token, key, session: { sessionToken: opened.sessionToken, expiresAt: opened.expiresAt } });
    return opened.sessionToken;
  };
  /**
   * The token read as spent while this phone sent an exchange of it (its key is kept) whose answer
   * never came: the exchange asked again opens this phone's session. False when it does not (the
   * token was spent elsewhere, or too long ago).
   */
  const reopened = async (): Promise<boolean> => {
    if (creds.current.session || !creds.current.key || !creds.current.token) return false;
    try {
      await session();
      return true;
    } catch {
      return false;
    }
  };

  /** A session is kept, by this tab or another on the same link. */
  const hasSession = (): boolean => creds.current.session !== null || adopted();
  /**
   * Confirm with the link itself, while no session is kept: the server spends the token only once
   * the accept succeeded. A Confirm that reached it just after the hold lapsed spent the link first
   * (for a session that ends within the hour), and the page, still in the queue, later said "This
   * link no longer works". The session comes with the answer; a retried tap whose first answer was
   * lost is answered without it, and the keyed exchange then opens the same one.
   */
  const acceptByLink = async (body: { offerId: string }): Promise<void> => {
    const token = creds.current.token;
    if (!token) throw new ApiError(401, 'TOKEN_INVALID', 'This link no longer works.');
    const key = creds.current.key ?? newExchangeKey();
    if (creds.current.key !== key) keep({ ...creds.current, key });
    const answer = await api.post<{ session?: OpenedSession | null }>('/v1/queue-status/accept', { token, key, ...body });
    const opened = answer.session;
    if (opened?.sessionToken)
      keep({ ...creds.current, session: { sessionToken: opened.sessionToken, expiresAt: opened.expiresAt } });
    else await session().catch(() => undefined);
  };

  const act = async (path: string, body: object): Promise<void> => {
    // A read begun before the act says where the party stood before it.
    supersede();
    setBusy(true);
    setProblem(null);
    refusal.current = null;
    try {
      const answer =
        path === ACCEPT && !hasSession()
          ? await acceptByLink(body as { offerId: string }).then(() => null)
          : await api.post<{ entry: PartyView['entry']; cancelledBooking?: unknown }>(path, body, {
              queueSession: await session(),
            });
      setAskLeave(false);
      if (path === LEAVE && shown.kind === 'view' && answer) {
        // Leaving ends the party's session and link with its entry: show the answer, read no more.
        const view = { ...shown.view, entry: answer.entry, position: null, ahead: null, offer: null };
        keep({ ...creds.current, left: true, ...releasedBy(shown.view, answer) });
        supersede();
        setShown({ kind: 'view', view, readAt: readWallClock(), final: true });
        return;
      }
    } catch (err) {
      if (isGone(err)) {
        setShown({ kind: 'gone' });
        return;
      }
      // An offer that lapsed just before the tap: the read below brings the party back in the queue
      // with the lapse said in its state ("The offer expired and its table was released. Nothing
      // lost…"), so the same words are not repeated under it as an error.
      if (!(err instanceof ApiError && err.code === 'WAITLIST_OFFER_EXPIRED')) {
        setProblem(messageOf(err));
        // A refusal stays until the party's state changes; a request that never reached the server
        // (no connection) is not a refusal: the next read that gets through clears it.
        if (!(err instanceof ApiError && err.code === 'UNREACHABLE')) refusal.current = {};
      }
    } finally {
      setBusy(false);
    }
    await read();
  };

  return (
    <main class="page" data-testid="guest-page" data-state={shown.kind === 'view' ? shown.view.entry.status : shown.kind}>
      {(shown.kind === 'loading' || shown.kind === 'deciding') && <p class="muted">Looking up your place…</p>}
      {shown.kind === 'choose' && (
        <section class="card" data-testid="choose">
          <h1>Which place should this phone follow?</h1>
          <p>
            This phone follows <strong>{partyLine(shown.mine)}</strong>. The link you just opened is for{' '}
            <strong>{partyLine(shown.theirs)}</strong>.
          </p>
          <p>Only follow a link the desk gave your own {wordsFor(shown.mine.venue.seating).who}.</p>
          <div class="row">
            <button type="button" class="btn btn-primary" data-testid="keep-mine" onClick={() => setShown({ kind: 'loading' })}>
              Keep <bdi>{shown.mine.entry.name}</bdi>
            </button>
            <button type="button" class="btn" data-testid="follow-link" onClick={() => follow(shown.token)}>
              Follow <bdi>{shown.theirs.entry.name}</bdi>
            </button>
          </div>
        </section>
      )}
      {shown.kind === 'no-link' && (
        <section class="card" data-testid="no-link">
          <h1>Open your queue link</h1>
          <p>Scan the code the desk gave you, or open the link from it, on this phone.</p>
          <p>Lost it? Ask at the desk for a new queue link.</p>
        </section>
      )}
      {(shown.kind === 'left' || shown.kind === 'gone' || shown.kind === 'day-closed') && (
        <KeptVenue name={creds.current.venueName} />
      )}
      {shown.kind === 'day-closed' && (
        <section class="card" data-testid="day-closed">
          <EndedTitle under={creds.current.venueName}>The queue has closed for the day</EndedTitle>
          <p>{DAY_CLOSED}</p>
        </section>
      )}
      {shown.kind === 'left' && (
        <section class="card" data-testid="left">
          <EndedTitle under={creds.current.venueName}>You have left the queue</EndedTitle>
          <LeftReleased words={wordsFor(creds.current.seating)} released={creds.current.released} />
          <p>{wordsFor(creds.current.seating).joinAgain}</p>
        </section>
      )}
      {shown.kind === 'gone' && (
        <section class="card" data-testid="gone">
          <EndedTitle under={creds.current.venueName}>This link no longer works</EndedTitle>
          <p>
            A queue link stops working at the end of the day, when the desk gives you a new one, or when you leave the queue or
            {` ${wordsFor(creds.current.seating).staff} `}removes you from it. Once it is used to confirm or leave on one phone,
            it works on that phone only, for an hour.
          </p>
          <p>
            Did someone in your {wordsFor(creds.current.seating).who} confirm or leave on their phone? Their phone shows where you
            stand.
          </p>
          <p class="strong">
            Ask at the desk: {wordsFor(creds.current.seating).staff} gives you a new code to scan if you are still in the queue,
            or adds you again if you are no longer in it.
          </p>
        </section>
      )}
      {shown.kind === 'view' && (
        <Entry
          view={shown.view}
          released={shown.final === true ? creds.current.released : undefined}
          readAt={shown.readAt}
          busy={busy}
          askLeave={askLeave}
          onConfirm={(offerId) => void act(ACCEPT, { offerId })}
          onLeave={() => (askLeave ? void act(LEAVE, {}) : setAskLeave(true))}
          onKeep={() => setAskLeave(false)}
          onLapsed={() => void read()}
        />
      )}
      {problem && (
        <p class="problem" role="alert" data-testid="problem">
          {problem}
        </p>
      )}
    </main>
  );
}

/**
 * The venue this phone's link was for, as last read, over a page whose link has ended (the server
 * reads nothing of it then): the same header as a live place's, without the party's line.
 */
function KeptVenue({ name }: { name: string | undefined }) {
  if (!name) return null;
  return (
    <header class="venue">
      <p class="muted">Your place at</p>
      <h1 data-testid="venue">
        <bdi>{name}</bdi>
      </h1>
    </header>
  );
}

/** The card's title: the page's heading, or under the venue's when the venue is named above it (as on a live place). */
function EndedTitle({ under, children }: { under: string | undefined; children: string }) {
  return under ? <h2>{children}</h2> : <h1>{children}</h1>;
}

/** The names isolated (bdi): a right-to-left name must not carry the words and numbers after it into its own direction. */
const partyLine = (v: PartyView) => (
  <>
    <bdi>{v.entry.name}</bdi>, {wordsFor(v.venue.seating).partyOf(v.entry.partySize)}, at <bdi>{v.venue.name}</bdi>
  </>
);

/**
 * What this phone's leave released: a group whose hold was live gave up its held seats (its entry
 * is cancelled, not expired: a hold that lapsed just before the tap was released by its expiry, not
 * by the leave), a confirmed group its booking's seats. Nothing for a waiting group.
 */
function releasedBy(
  before: PartyView,
  answer: { entry: PartyView['entry']; cancelledBooking?: unknown },
): Pick<Credentials, 'released'> {
  if (answer.entry.status !== 'cancelled') return {};
  if (before.entry.status === 'offered' && before.offer) return { released: { seats: before.entry.partySize, held: true } };
  if (answer.cancelledBooking) return { released: { seats: before.entry.partySize, held: false } };
  return {};
}

/** The seats a leave released, in the venue's words; nothing where the venue words none (a restaurant). */
function LeftReleased({ words, released }: { words: Words; released: Credentials['released'] }) {
  if (!released || !words.leftReleased) return null;
  return (
    <p class="strong" data-testid="left-released">
      {words.leftReleased(released.seats, released.held)}
    </p>
  );
}

interface EntryProps {
  view: PartyView;
  /** The seats this phone's leave released, once the page shows that it left. */
  released?: Credentials['released'];
  readAt: number;
  busy: boolean;
  askLeave: boolean;
  onConfirm: (offerId: string) => void;
  onLeave: () => void;
  onKeep: () => void;
  onLapsed: () => void;
}

/** States a party can leave from its phone; a confirmed party gives up its table or seats (API.md: leave after accepting). */
const LEAVABLE = new Set(['waiting', 'offered', 'confirmed']);

function Entry({ view, released, readAt, busy, askLeave, onConfirm, onLeave, onKeep, onLapsed }: EntryProps) {
  const { entry, venue, offer } = view;
  const w: Words = wordsFor(venue.seating);
  const live = entry.status === 'offered' ? offer : null;
  const left = useTimeLeft(live?.expiresAt ?? null, view.now, readAt, venue.sandbox);
  return (
    <>
      <header class="venue">
        <p class="muted">Your place at</p>
        <h1 data-testid="venue">{venue.name}</h1>
        <p data-testid="party">
          <bdi>{entry.name}</bdi>, {w.partyOf(entry.partySize)}
        </p>
      </header>
      <section class="card" data-testid="state">
        {entry.status === 'waiting' && (
          <>
            <h2>You are in the queue</h2>
            {w.place && view.position !== null && (
              <p data-testid="place">{w.place(view.position, view.ahead ?? view.position - 1)}</p>
            )}
            <BackInQueue last={view.lastOffer} words={w} />
            {view.serviceRunning === false ? (
              <p data-testid="no-service">
                No service is running now, so no table can be offered until the next one starts. Ask at the desk whether you can
                still be seated today.
              </p>
            ) : (
              // A party is promised a message only when one will be sent (no provider: only recorded).
              <p>{view.messaged === false ? w.waitingUnmessaged : w.waiting}</p>
            )}
          </>
        )}
        {entry.status === 'offered' && offer && (
          <>
            <h2>{w.offeredTitle(entry.partySize)}</h2>
            <p>
              {w.confirmWithin} <Countdown key={offer.id} left={left ?? 0} stopped={venue.sandbox} onZero={onLapsed} /> —{' '}
              {w.expiresAt} <span data-testid="deadline">{deadlineTime(offer.expiresAt, venue.timeZone)}</span>.
            </p>
            <button
              type="button"
              class="btn btn-primary"
              data-testid="confirm"
              // Off at 0:00 until a read says where the party stands: a tap on a lapsed hold (the page's
              // reads not getting through, on a weak signal) spent the party's link for a session that
              // ends within the hour, while its place in the queue goes on.
              disabled={busy || left === 0}
              onClick={() => onConfirm(offer.id)}
            >
              {w.confirmButton}
            </button>
          </>
        )}
        {entry.status === 'confirmed' && (
          <>
            <h2>{w.confirmedTitle(entry.partySize)}</h2>
            <p>{w.confirmedNext}</p>
          </>
        )}
        {entry.status === 'seated' && (
          <>
            <h2>{w.seatedTitle}</h2>
            <p>{w.seatedNext}</p>
          </>
        )}
        {entry.status === 'cancelled' && (
          <>
            <h2>You have left the queue</h2>
            <LeftReleased words={w} released={released} />
            <p>{w.joinAgain}</p>
          </>
        )}
        {entry.status === 'expired' && (
          <>
            <h2>You are no longer in the queue</h2>
            <OutOfQueue last={view.lastOffer} reason={view.outReason} words={w} />
          </>
        )}
      </section>
      {LEAVABLE.has(entry.status) && (
        <section class="leave">
          {askLeave ? (
            <>
              <p>
                {entry.status === 'confirmed'
                  ? w.leaveConfirmed
                  : entry.status === 'offered'
                    ? w.leaveHeld(entry.partySize)
                    : 'Leave the queue? Your place will be given up.'}
              </p>
              <div class="row">
                <button type="button" class="btn btn-danger" data-testid="leave-confirm" disabled={busy} onClick={onLeave}>
                  Yes, leave
                </button>
                <button type="button" class="btn" data-testid="leave-keep" disabled={busy} onClick={onKeep}>
                  {entry.status === 'confirmed' ? w.keepConfirmed : entry.status === 'offered' ? w.keepHeld : 'Keep my place'}
                </button>
              </div>
            </>
          ) : (
            <button type="button" class="btn btn-quiet" data-testid="leave" disabled={busy} onClick={onLeave}>
              {entry.status === 'confirmed' ? w.cancelConfirmed : 'Leave the queue'}
            </button>
          )}
        </section>
      )}
    </>
  );
}
