import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, messageOf } from '../api/client';
import type { ServiceWindow, TableDef, Venue } from '../api/types';
import { byLabel } from '../floor-layout';
import { holdLengthWords } from '../format';
import { ActButton } from '../components/act-button';
import { Stepper } from '../components/stepper';
import { joinWarnings } from '../readiness';
import { wallSecond } from '../state/clock';
import { dropConfirmations, say } from '../state/notice';
import { api } from '../state/session';
import { venueNowAt } from '../state/venue-data';
import { boardWords } from '../words';
import { PlanEditor } from './plan-editor';
import type { TabProps } from './registry';

/** The back office, for managers: settings, tables and their plan, combinations, service hours. */
export function SetupView({ venueId, data }: TabProps) {
  const venue = data.venue.value;
  if (!venue) return <main class="page">{data.problem.value ?? 'Loading…'}</main>;
  const reload = () => data.reload();
  // In the order a host counts them: T2 before T10 (the server's order put T10 to T19 before T2).
  const tables = [...data.tables.value].sort(byLabel);
  return (
    <main class="page setup" data-testid="setup">
      <Readiness data={data} />
      <SectionJumps tables={venue.policy.seating === 'tables'} />
      <Settings venue={venue} reload={reload} />
      {venue.policy.seating === 'tables' && (
        <>
          <Tables venueId={venueId} tables={tables} reload={reload} />
          <PlanEditor venueId={venueId} tables={tables} reload={reload} />
          <Combinations venueId={venueId} tables={tables} data={data} reload={reload} />
        </>
      )}
      <Windows venueId={venueId} data={data} reload={reload} pool={venue.policy.seating === 'pool'} />
    </main>
  );
}

/**
 * Whether parties can join now, and if not why. Its own component: on a venue with a running clock it
 * reads the time each second, which re-renders this line, not the forms under it.
 */
function Readiness({ data }: Pick<TabProps, 'data'>) {
  const venue = data.venue.value;
  if (!venue) return null;
  // A sandbox's own clock; else the server's time, from the venue's read (a tablet's clock may be
  // hours off). Set up read the whole board snapshot for it as it opened.
  const at = venueNowAt(venue, data.venueReadAt, wallSecond.value);
  const warnings = joinWarnings(venue, data.tables.value, data.combinations.value, data.windows.value, data.serviceRunsAt(at));
  return warnings.lines.length > 0 ? (
    <section class="warnings" data-testid="setup-warnings">
      <strong>{warnings.heading}</strong>
      <ul>
        {warnings.lines.map((w) => (
          <li key={w}>{w}</li>
        ))}
      </ul>
    </section>
  ) : (
    <p class="ok-line" data-testid="setup-ready">
      Ready: {boardWords(venue.policy.seating).whoPlural} can join now.
    </p>
  );
}

/** The page's sections by their cards' test ids, in page order. */
const SECTIONS: Array<{ id: string; label: string; tablesOnly: boolean }> = [
  { id: 'settings', label: 'Settings', tablesOnly: false },
  { id: 'tables-setup', label: 'Tables', tablesOnly: true },
  { id: 'plan-setup', label: 'Plan', tablesOnly: true },
  { id: 'combinations-setup', label: 'Pushed together', tablesOnly: true },
  { id: 'windows-setup', label: 'Hours', tablesOnly: false },
];

/**
 * Set up runs to several screens on a phone: a row of jumps to each section, which lands its
 * heading just under the top bar (that bar stays on screen and would otherwise cover it).
 */
function SectionJumps({ tables }: { tables: boolean }) {
  const jump = (id: string): void => {
    const card = document.querySelector<HTMLElement>(`[data-testid="${id}"]`);
    if (!card) return;
    const bar = document.querySelector('.top-bar')?.getBoundingClientRect().height ?? 0;
    window.scrollTo({ top: card.getBoundingClientRect().top + window.scrollY - bar - 8 });
  };
  return (
    <nav class="section-jumps" aria-label="Sections of Set up" data-testid="setup-jumps">
      {SECTIONS.filter((x) => tables || !x.tablesOnly).map((x) => (
        <button key={x.id} type="button" class="chip-btn" data-jump={x.id} onClick={() => jump(x.id)}>
          {x.label}
        </button>
      ))}
    </nav>
  );
}

function useForm(): {
  error: string | null;
  busy: boolean;
  run: (fn: () => Promise<void>) => Promise<void>;
  clear: () => void;
} {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async (fn: () => Promise<void>): Promise<void> => {
    setBusy(true);
    setError(null);
    try {
      await fn();
    } catch (err) {
      // The confirmation of the act before ("Combination approved.") would read as this one's, under
      // its refusal ("These tables are already an approved combination."): it goes.
      dropConfirmations();
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };
  return { error, busy, run, clear: () => setError(null) };
}

/** The settings form's fields, as the venue has them. */
function settingsOf(venue: Venue) {
  return {
    name: venue.name,
    country: venue.country ?? '',
    published: venue.published,
    queueEnabled: venue.queueEnabled,
    cap: venue.queuePartyCap,
    // Whole minutes, rounded down: a hold of 25½ minutes (set through the API) reads 25 here, and its
    // length in words beside it.
    holdMinutes: Math.max(1, Math.floor(venue.policy.holdSeconds / 60)),
    order: venue.policy.order,
    poolCapacity: venue.policy.poolCapacity ?? 1,
  };
}
type SettingsFields = ReturnType<typeof settingsOf>;

/**
 * A save sends only the fields changed on this screen since the venue was read: another manager's
 * change made meanwhile on another tablet (the queue switched off, say) is not undone by this one
 * saving a hold length, and a hold of part minutes (90 s shown as 1 min) is not rewritten unless edited.
 * When the venue is read again, the fields not touched here follow it.
 */
function Settings({ venue, reload }: { venue: Venue; reload: () => Promise<void> }) {
  const read = settingsOf(venue);
  const base = useRef<SettingsFields>(read);
  const [fields, setFields] = useState<SettingsFields>(read);
  const readKey = JSON.stringify(read);
  useEffect(() => {
    const before = base.current;
    base.current = read;
    setFields((now) => {
      const next = { ...now };
      for (const k of Object.keys(read) as Array<keyof SettingsFields>)
        if (now[k] === before[k]) Object.assign(next, { [k]: read[k] });
      return next;
    });
    // Runs when the venue's settings change by value (a reload makes a new object each time).
  }, [readKey]);
  const set = <K extends keyof SettingsFields>(k: K, v: SettingsFields[K]): void => setFields((now) => ({ ...now, [k]: v }));
  const { name, country, published, queueEnabled, cap, holdMinutes, order, poolCapacity } = fields;
  const pool = venue.policy.seating === 'pool';
  // A seat pool's seats, hold and order are fixed once a group has joined (the server refuses a change,
  // and with it the whole save): they are stated, not offered for editing.
  const fixed = pool && venue.policyFixed === true;
  // Venues carry a country once the server reads national phone numbers with it.
  const hasCountry = 'country' in venue;
  const f = useForm();
  // Why a policy change was not saved (a group joined after this page read the venue): kept in view.
  const [policyKept, setPolicyKept] = useState<string | null>(null);
  const save = (e: Event) => {
    e.preventDefault();
    void f.run(async () => {
      if (name.trim() === '') throw new Error('The venue needs a name.');
      const changed = (k: keyof SettingsFields): boolean => fields[k] !== base.current[k];
      const policy = fixed
        ? {}
        : {
            ...(changed('holdMinutes') && { holdSeconds: holdMinutes * 60 }),
            ...(changed('order') && { order }),
            ...(pool && changed('poolCapacity') && { poolCapacity }),
          };
      const body = {
        ...(changed('name') && { name: name.trim() }),
        // The Country field was shown and never sent: what a manager typed there was dropped.
        ...(hasCountry && changed('country') && { country: country.trim().toUpperCase() || null }),
        ...(changed('published') && { published }),
        ...(changed('queueEnabled') && { queueEnabled }),
        // A seat pool's server refuses a party cap (its groups go up to the seats in all): never sent there.
        ...(!pool && changed('cap') && { queuePartyCap: cap }),
        ...(Object.keys(policy).length > 0 && { policy }),
      };
      setPolicyKept(null);
      if (Object.keys(body).length === 0) {
        say('ok', 'Nothing to save: no setting was changed.');
        await reload();
        return;
      }
      try {
        await api.request('PATCH', `/v1/venues/${venue.id}`, { body });
      } catch (err) {
        // A group joined (on another device) since this page read the venue: the server now refuses
        // any policy change, and with it the whole save. Read the venue again: once it says the policy
        // is fixed, the form states it as fixed and the host's other changes are saved without it.
        if (!('policy' in body) || !(err instanceof ApiError) || err.code !== 'RULE_VIOLATION') throw err;
        const reread = await api.get<Venue>(`/v1/venues/${venue.id}`);
        if (reread.policyFixed !== true) throw err;
        const rest: Record<string, unknown> = { ...body };
        delete rest['policy'];
        const others = Object.keys(rest).length > 0;
        if (others) await api.request('PATCH', `/v1/venues/${venue.id}`, { body: rest });
        // The refused policy edits are dropped: the fixed policy is what the form shows now.
        setFields((now) => ({
          ...now,
          holdMinutes: base.current.holdMinutes,
          order: base.current.order,
          poolCapacity: base.current.poolCapacity,
        }));
        setPolicyKept(
          `A group has joined since this page opened, so the seats, hold and order are now fixed: your change to them was not saved.${
            others ? ' Your other changes were saved.' : ''
          }`,
        );
        say(
          'ok',
          others
            ? 'Settings saved, except the seats, hold and order (now fixed).'
            : 'Nothing saved: the seats, hold and order are now fixed.',
        );
        await reload();
        return;
      }
      say('ok', 'Settings saved.');
      await reload();
    });
  };
  return (
    <form class="card form" onSubmit={save} data-testid="settings">
      <h2>Settings</h2>
      <label>
        Name
        <input name="venueName" maxLength={160} value={name} onInput={(e) => set('name', e.currentTarget.value)} />
      </label>
      {hasCountry && (
        <label>
          Country <span class="muted">(two letters, such as US or FR; guests' phone numbers are read with it)</span>
          <input name="country" maxLength={2} value={country} onInput={(e) => set('country', e.currentTarget.value)} />
        </label>
      )}
      <label class="check">
        <input type="checkbox" name="published" checked={published} onChange={(e) => set('published', e.currentTarget.checked)} />
        {/* The pilot has no guest page to join from (the spec's "Pilot reality"): publishing opens the public join command. */}
        Published (the public join adds to the queue without the desk)
      </label>
      <label class="check">
        <input
          type="checkbox"
          name="queueEnabled"
          checked={queueEnabled}
          onChange={(e) => set('queueEnabled', e.currentTarget.checked)}
        />
        Queue on ({boardWords(venue.policy.seating).whoPlural} can join)
      </label>
      {fixed ? (
        <>
          <p class="muted" data-testid="policy-fixed">
            Fixed once registration opened: {venue.policy.poolCapacity} seats in all, groups of 1 to {venue.policy.poolCapacity};
            seats held for a group {holdLengthWords(venue.policy.holdSeconds)};{' '}
            {venue.policy.order === 'strict'
              ? 'strictly in order (only the oldest group, never skipped)'
              : 'the oldest group that fits (an older, larger group may be passed over)'}
            .
          </p>
          {policyKept && (
            <p class="warnings" role="status" data-testid="policy-kept">
              {policyKept}
            </p>
          )}
        </>
      ) : (
        <>
          {pool && (
            <Stepper
              label="Seats in all"
              value={poolCapacity}
              max={100000}
              onChange={(v) => set('poolCapacity', v)}
              name="poolCapacity"
            />
          )}
          {pool ? (
            // A seat pool takes groups of 1 to its seats (the workshop guide's rule) and ignores the
            // restaurant's party cap: a cap shown here would promise a refusal that never comes.
            <p class="muted" data-testid="group-sizes">
              Groups of 1 to {poolCapacity} {poolCapacity === 1 ? 'person' : 'people'} may join (the seats in all); a group is
              never split.
            </p>
          ) : (
            <Stepper
              label="Largest party that may join"
              value={cap}
              max={200}
              onChange={(v) => set('cap', v)}
              name="queuePartyCap"
            />
          )}
          <Stepper
            label={boardWords(venue.policy.seating).holdMinutesLabel}
            value={holdMinutes}
            max={1440}
            onChange={(v) => set('holdMinutes', v)}
            name="holdMinutes"
          />
          {venue.policy.holdSeconds % 60 !== 0 && holdMinutes === base.current.holdMinutes && (
            <p class="muted" data-testid="hold-now">
              Held now for {holdLengthWords(venue.policy.holdSeconds)}; a change here sets whole minutes.
            </p>
          )}
          <fieldset class="choice">
            <legend>Who is next</legend>
            <label>
              <input type="radio" name="order" checked={order === 'host-pick'} onChange={() => set('order', 'host-pick')} />
              {/* At a seat pool the promotion picks, not the host: the oldest group that fits. */}
              {pool
                ? 'The oldest group that fits (an older, larger group may be passed over)'
                : 'The host picks (any party that fits the table)'}
            </label>
            <label>
              <input type="radio" name="order" checked={order === 'strict'} onChange={() => set('order', 'strict')} />
              {pool
                ? 'Strictly in order: only the oldest group, never skipped (seats may stay free until it fits)'
                : 'Strictly in order of arrival'}
            </label>
          </fieldset>
        </>
      )}
      {f.error && (
        <p class="error" role="alert">
          {f.error}
        </p>
      )}
      <button type="submit" class="btn btn-primary" disabled={f.busy} data-testid="save-settings">
        Save settings
      </button>
    </form>
  );
}

function Tables({ venueId, tables, reload }: { venueId: string; tables: TableDef[]; reload: () => Promise<void> }) {
  const [label, setLabel] = useState('');
  const [capacity, setCapacity] = useState(2);
  const f = useForm();
  const field = useRef<HTMLInputElement>(null);
  // By name as Set up opens; then each table keeps its place while the manager works down the list
  // (a new one goes at the foot). Sorted on each save, a renamed table jumped away and the row under
  // it moved up under the finger, typed into as it moved; the next opening sorts again.
  const order = useRef<string[]>([]);
  const kept = order.current.filter((id) => tables.some((t) => t.id === id));
  const shown = [...kept.map((id) => tables.find((t) => t.id === id) as TableDef), ...tables.filter((t) => !kept.includes(t.id))];
  order.current = shown.map((t) => t.id);
  const add = (e: Event) => {
    e.preventDefault();
    void f
      .run(async () => {
        await api.post(`/v1/venues/${venueId}/tables`, { label: label.trim(), capacity });
        say('ok', `Table ${label.trim()} added.`);
        setLabel('');
        await reload();
      })
      // Ready for the next table, or to correct this one: the button, disabled while it worked,
      // had dropped the focus to the page.
      .then(() => field.current?.focus());
  };
  return (
    <section class="card" data-testid="tables-setup">
      <h2>Tables</h2>
      {tables.length === 0 && <p class="empty">No tables yet: add the first one below.</p>}
      <ul class="setup-list">
        {shown.map((t) => (
          <TableLine key={`${t.id}-${t.label}-${t.capacity}`} venueId={venueId} table={t} reload={reload} />
        ))}
      </ul>
      <form class="form inline-form" onSubmit={add}>
        <label>
          New table
          <input
            ref={field}
            name="tableLabel"
            maxLength={40}
            placeholder="Name or number"
            value={label}
            onInput={(e) => setLabel(e.currentTarget.value)}
          />
        </label>
        <Stepper label="Seats" value={capacity} max={200} onChange={setCapacity} name="tableCapacity" />
        {f.error && (
          <p class="error" role="alert">
            {f.error}
          </p>
        )}
        <button type="submit" class="btn btn-primary" disabled={f.busy || label.trim() === ''} data-testid="add-table">
          Add table
        </button>
      </form>
    </section>
  );
}

function TableLine({ venueId, table, reload }: { venueId: string; table: TableDef; reload: () => Promise<void> }) {
  const [label, setLabel] = useState(table.label);
  const [capacity, setCapacity] = useState(table.capacity);
  const changed = label.trim() !== table.label || capacity !== table.capacity;
  const base = `/v1/venues/${venueId}/tables/${table.id}`;
  return (
    <li class="setup-line" data-testid="table-line" data-table-id={table.id}>
      <input aria-label="Table name" name="label" maxLength={40} value={label} onInput={(e) => setLabel(e.currentTarget.value)} />
      <Stepper label="Seats" value={capacity} max={200} onChange={setCapacity} />
      <ActButton
        kind="primary"
        disabled={!changed || label.trim() === ''}
        onAct={async () => {
          await api.request('PATCH', base, { body: { label: label.trim(), capacity } });
          say('ok', `Table ${label.trim()} saved.`);
          await reload();
        }}
      >
        Save
      </ActButton>
      <ActButton
        kind="danger"
        confirm="Tap again to retire"
        onAct={async () => {
          await api.post(`${base}/retire`);
          say('ok', `Table ${table.label} retired.`);
          await reload();
        }}
      >
        Retire
      </ActButton>
    </li>
  );
}

function Combinations({
  venueId,
  tables,
  data,
  reload,
}: {
  venueId: string;
  tables: TableDef[];
  data: TabProps['data'];
  reload: () => Promise<void>;
}) {
  const [picked, setPicked] = useState<string[]>([]);
  // The seats the manager set, or null: then the picked tables' seats added up. A fixed 4 stayed
  // whatever was picked, and C4 + E6 pushed together were approved as seating 4 (the server takes
  // any number), so the board never offered them to a party of 7.
  const [typedCapacity, setCapacity] = useState<number | null>(null);
  const pickedSeats = picked.reduce((n, id) => n + (tables.find((t) => t.id === id)?.capacity ?? 0), 0);
  const capacity = typedCapacity ?? Math.max(1, pickedSeats);
  const f = useForm();
  const labelOf = (id: string): string => tables.find((t) => t.id === id)?.label ?? 'retired';
  // In the order a host counts them (A2 + B2 + C4), as the tables list: the server's order, by id,
  // read "C4 + A2 + B2".
  const labelsOf = (ids: string[]): string =>
    ids
      .map((id) => ({ label: labelOf(id) }))
      .sort(byLabel)
      .map((t) => t.label)
      .join(' + ');
  const add = (e: Event) => {
    e.preventDefault();
    void f.run(async () => {
      await api.post(`/v1/venues/${venueId}/combinations`, { tableIds: picked, capacity });
      say('ok', 'Combination approved.');
      setPicked([]);
      setCapacity(null);
      await reload();
    });
  };
  if (tables.length < 2) return null;
  return (
    <section class="card" data-testid="combinations-setup">
      <h2>Tables that can be pushed together</h2>
      <ul class="setup-list">
        {data.combinations.value.map((c) => (
          <li key={c.id} class="setup-line" data-testid="combination-line">
            <span>
              {labelsOf(c.tableIds)} · seats {c.capacity}
            </span>
            <ActButton
              kind="danger"
              confirm="Tap again to remove"
              testId="remove-combination"
              onAct={async () => {
                await api.delete(`/v1/venues/${venueId}/combinations/${c.id}`);
                say('ok', `${labelsOf(c.tableIds)} no longer pushed together.`);
                await reload();
              }}
            >
              Remove
            </ActButton>
          </li>
        ))}
      </ul>
      <form class="form" onSubmit={add}>
        <div class="filters" role="group" aria-label="Tables to combine">
          {tables.map((t) => (
            <button
              key={t.id}
              type="button"
              class={`chip-btn${picked.includes(t.id) ? ' on' : ''}`}
              aria-pressed={picked.includes(t.id)}
              data-combo-table={t.label}
              onClick={() => {
                // A refusal was about the tables picked before: it goes once the pick changes.
                f.clear();
                setPicked(picked.includes(t.id) ? picked.filter((p) => p !== t.id) : [...picked, t.id].slice(0, 4));
              }}
            >
              {t.label}
            </button>
          ))}
        </div>
        <Stepper label="Seats together" value={capacity} max={200} onChange={setCapacity} name="comboCapacity" />
        {f.error && (
          <p class="error" role="alert">
            {f.error}
          </p>
        )}
        <button type="submit" class="btn btn-primary" disabled={f.busy || picked.length < 2} data-testid="add-combination">
          Approve combination
        </button>
      </form>
    </section>
  );
}

const DAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

/** "Tue Wed Thu Fri Sat · 18:00–23:00" ("… the next day" past midnight): service hours as their list line names them. */
const hoursWords = (w: ServiceWindow): string =>
  `${w.days.map((d) => DAYS[d - 1]).join(' ')} · ${w.start}–${w.end}${w.end <= w.start ? ' the next day' : ''}`;

/**
 * Service hours. At a seat pool (a workshop) they are only when groups may join: a pool quotes a place
 * in line, never minutes (QuoteService), and books no table, so a window's turn and deposit decide
 * nothing there and are neither asked for nor shown (the turn is sent as its default: the API needs one).
 */
function Windows({
  venueId,
  data,
  reload,
  pool,
}: {
  venueId: string;
  data: TabProps['data'];
  reload: () => Promise<void>;
  pool: boolean;
}) {
  const [days, setDays] = useState<number[]>([1, 2, 3, 4, 5, 6, 7]);
  const [start, setStart] = useState('17:00');
  const [end, setEnd] = useState('23:00');
  const [turn, setTurn] = useState(90);
  const [deposit, setDeposit] = useState(false);
  const f = useForm();
  const add = (e: Event) => {
    e.preventDefault();
    void f.run(async () => {
      const added = await api
        .post<ServiceWindow>(`/v1/venues/${venueId}/service-windows`, {
          days,
          start,
          end,
          turnMinutes: turn,
          depositRequired: deposit,
        })
        .catch((err: unknown) => {
          // New hours over ones already set: the way to change hours is to remove them, then add the
          // new ones. Said in this card's words: the server's "overlaps the window 18:00–23:00 on
          // Monday, …" named a "window" the page never shows, and not what to do about it.
          const clash =
            err instanceof ApiError && err.code === 'CONFLICT'
              ? data.windows.value.find((w) => w.id === err.details['windowId'])
              : undefined;
          if (!clash) throw err;
          throw new Error(
            `These hours overlap the service hours ${hoursWords(clash)}. To change those, remove them above, then add these.`,
          );
        });
      // The hours' line says what they do on the nights the clocks change (the list's clockChanges).
      say(
        'ok',
        (added.clockChanges ?? []).length > 0
          ? 'Service hours added. See under them what they do when the clocks change.'
          : 'Service hours added.',
      );
      await reload();
    });
  };
  return (
    <section class="card" data-testid="windows-setup">
      <h2>Service hours</h2>
      {data.windows.value.length === 0 && <p class="empty">No service hours yet.</p>}
      <ul class="setup-list">
        {data.windows.value.map((w) => (
          <li key={w.id} class="setup-line" data-testid="window-line">
            <span>
              {hoursWords(w)}
              {!pool && ` · tables turn in ${w.turnMinutes} min`}
              {!pool && w.depositRequired ? ' · deposit' : ''}
            </span>
            <ActButton
              kind="danger"
              confirm="Tap again to remove"
              testId="remove-window"
              onAct={async () => {
                await api.delete(`/v1/venues/${venueId}/service-windows/${w.id}`);
                say('ok', `Service hours ${w.start}–${w.end} removed.`);
                await reload();
              }}
            >
              Remove
            </ActButton>
            {(w.clockChanges ?? []).length > 0 && (
              <div class="muted window-notes" data-testid="window-clock-changes">
                <p>When the clocks change:</p>
                <ul>
                  {(w.clockChanges ?? []).map((line) => (
                    <li key={line}>{line}</li>
                  ))}
                </ul>
              </div>
            )}
          </li>
        ))}
      </ul>
      <form class="form" onSubmit={add}>
        <div class="filters" role="group" aria-label="Days">
          {DAYS.map((d, i) => (
            <button
              key={d}
              type="button"
              class={`chip-btn${days.includes(i + 1) ? ' on' : ''}`}
              aria-pressed={days.includes(i + 1)}
              onClick={() => setDays(days.includes(i + 1) ? days.filter((x) => x !== i + 1) : [...days, i + 1].sort())}
            >
              {d}
            </button>
          ))}
        </div>
        <div class="two">
          <label>
            From
            <input type="time" name="start" value={start} onInput={(e) => setStart(e.currentTarget.value)} />
          </label>
          <label>
            Until
            <input type="time" name="end" value={end} onInput={(e) => setEnd(e.currentTarget.value)} />
          </label>
        </div>
        {!pool && (
          <>
            <Stepper label="Minutes a table is used per party" value={turn} max={720} onChange={setTurn} name="turnMinutes" />
            <label class="check">
              <input type="checkbox" checked={deposit} onChange={(e) => setDeposit(e.currentTarget.checked)} />
              Deposit required for bookings
            </label>
          </>
        )}
        {f.error && (
          <p class="error" role="alert">
            {f.error}
          </p>
        )}
        <button type="submit" class="btn btn-primary" disabled={f.busy || days.length === 0} data-testid="add-window">
          Add service hours
        </button>
      </form>
    </section>
  );
}
