import { Fragment } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, messageOf } from '../api/client';
import { ActButton } from '../components/act-button';
import { clearOfToasts } from '../components/toasts';
import { dropConfirmations, say } from '../state/notice';
import { session } from '../state/session';
import { PendingInvitations } from './pending-invitations';
import { ROLES, staffApi, type AddMemberAnswer, type Member, type PendingInvitation, type Role } from './staff-api';

/**
 * The venue's staff, for managers and owners: list, add (a new account with a password to hand
 * over, or an invitation), change a role, remove, reset a password the venue set and nobody has
 * changed since. What each add did is shown in the server's own words.
 */
/**
 * What the signed-in member may do to a row, as the server decides it: an owner manages everyone; a
 * manager manages hosts only (and grants no role but host). Controls the server would refuse are not
 * offered: a manager saw a role menu, Reset password and Remove on the owner's row, each refused.
 */
function manages(actor: Role, member: Role): boolean {
  return actor === 'owner' || (actor === 'manager' && member === 'host');
}

/** A member as the tab names them in its answers: their name, else their address. */
const who = (m: Member): string => m.name || m.email;

/** "a manager", "an owner": "… is now manager." read as a code. */
const withArticle = (r: Role): string => `${r === 'owner' ? 'an' : 'a'} ${r}`;

const RANK: Record<Role, number> = { owner: 0, manager: 1, host: 2 };

/**
 * The owner, then managers, then hosts, each by name as people count (Sam 2 before Sam 10): the
 * server's order by email put the owner anywhere and "…10@" before "…2@".
 */
function byRoleThenName(a: Member, b: Member): number {
  return (
    RANK[a.role] - RANK[b.role] ||
    who(a).localeCompare(who(b), undefined, { numeric: true, sensitivity: 'base' }) ||
    a.email.localeCompare(b.email)
  );
}

export function MembersPanel({ venueId, role, timeZone }: { venueId: string; role: Role; timeZone: string | undefined }) {
  const [members, setMembers] = useState<Member[] | null>(null);
  const owners = (members ?? []).filter((m) => m.role === 'owner').length;
  /** Bumped after every act that may open or end an invitation (an add, a removal, a role change). */
  const [invitationsRead, setInvitationsRead] = useState(0);
  const rereadInvitations = (): void => setInvitationsRead((n) => n + 1);
  const [error, setError] = useState<{ text: string; forbidden: boolean } | null>(null);
  /** What the add form did, shown under it (above the list it was 3000 px from the form on a phone). */
  const [note, setNote] = useState<{ text: string; error: boolean; link?: string | null } | null>(null);
  /** The open invitations as last read: the add form starts a known person on the role they have or were invited as. */
  const [invitations, setInvitations] = useState<PendingInvitation[]>([]);
  /** "Invite again" on a pending invitation: the person it fills the add form with (`n` tells two taps apart). */
  const [prefill, setPrefill] = useState<{ email: string; name: string; n: number } | null>(null);
  /** The member whose Reset password form is open under their row (one at a time). */
  const [resetting, setResetting] = useState<string | null>(null);
  const load = (): void => {
    staffApi.members(venueId).then(
      (m) => {
        setMembers([...m].sort(byRoleThenName));
        setError(null);
      },
      (err: unknown) => setError({ text: messageOf(err), forbidden: err instanceof ApiError && err.status === 403 }),
    );
  };
  useEffect(load, [venueId]);
  // A row's act is answered in a toast, over the page wherever the manager scrolled to.
  const act = async (what: () => Promise<unknown>, done: string): Promise<void> => {
    try {
      await what();
      say('ok', done);
    } catch (err) {
      say('error', messageOf(err));
    }
    load();
    rereadInvitations();
  };
  const me = session.value?.user.id;
  if (error) {
    return (
      <section class="card" data-testid="members-error">
        <p class="error">{error.text}</p>
        {error.forbidden && <p>Only a manager or the owner of this venue can manage its staff.</p>}
      </section>
    );
  }
  return (
    <section class="card members-panel" data-testid="members">
      <h2>Staff</h2>
      {members === null && <p class="muted">Loading staff…</p>}
      <table class="members-table">
        <tbody>
          {members?.map((m) => (
            <Fragment key={m.userId}>
              <tr data-testid="member" data-email={m.email}>
                <td>
                  {m.name} <span class="muted">{m.email}</span>
                </td>
                <td>
                  {role !== 'owner' ? (
                    <span data-testid="member-role">{m.role}</span>
                  ) : m.role === 'owner' && owners === 1 ? (
                    // A venue keeps at least one owner: every other choice here was refused so.
                    <span data-testid="member-role" title="The only owner: make another member an owner first.">
                      owner <span class="muted">(the only one)</span>
                    </span>
                  ) : (
                    <select
                      aria-label={`Role of ${m.email}`}
                      value={m.role}
                      onChange={(e) =>
                        void act(
                          () => staffApi.changeRole(venueId, m.userId, e.currentTarget.value as Role),
                          `${who(m)} is now ${withArticle(e.currentTarget.value as Role)}.`,
                        )
                      }
                    >
                      {ROLES.map((r) => (
                        <option key={r} value={r}>
                          {r}
                        </option>
                      ))}
                    </select>
                  )}
                </td>
                <td>
                  {/* One's own password is changed under Account, with the current one. */}
                  {m.userId !== me && manages(role, m.role) && m.passwordResettable && (
                    <button
                      type="button"
                      class="btn btn-secondary"
                      data-testid="reset-password"
                      aria-expanded={resetting === m.userId}
                      onClick={() => setResetting((r) => (r === m.userId ? null : m.userId))}
                    >
                      Reset password
                    </button>
                  )}
                  {m.userId !== me && manages(role, m.role) && (
                    // A second tap, as everywhere on the board: a browser dialog is easy to dismiss
                    // by habit on a tablet, and looks like the browser's, not the app's.
                    <ActButton
                      kind="danger"
                      confirm="Tap again: their access ends"
                      testId="remove-member"
                      onAct={() => act(() => staffApi.remove(venueId, m.userId), `${who(m)} was removed from the staff.`)}
                    >
                      Remove
                    </ActButton>
                  )}
                </td>
              </tr>
              {resetting === m.userId && (
                <tr class="reset-row" data-testid="reset-password-row" data-email={m.email}>
                  <td colSpan={3}>
                    <ResetPasswordForm
                      email={m.email}
                      onReset={(pw) => staffApi.resetPassword(venueId, m.userId, pw)}
                      onDone={() => {
                        setResetting(null);
                        say('ok', `New initial password set for ${m.email}; their sessions ended.`);
                        load();
                      }}
                      onCancel={() => setResetting(null)}
                    />
                  </td>
                </tr>
              )}
            </Fragment>
          ))}
        </tbody>
      </table>
      <PendingInvitations
        venueId={venueId}
        timeZone={timeZone}
        refresh={invitationsRead}
        onRead={setInvitations}
        onInviteAgain={(i) => setPrefill((p) => ({ email: i.email, name: i.name === i.email ? '' : i.name, n: (p?.n ?? 0) + 1 }))}
      />
      <AddMemberForm
        venueId={venueId}
        actor={role}
        known={[...(members ?? []), ...invitations]}
        prefill={prefill}
        onAdded={(a, replaced) => {
          // A new invitation ends the open one to the same address (the server's rule), silently:
          // re-adding a pending manager with the form's default role left them a host invitation.
          const also =
            replaced && a.outcome === 'invited'
              ? ` It replaces the invitation sent earlier${replaced.role !== a.role ? ` as ${replaced.role}` : ''}, whose link no longer works.`
              : '';
          setNote({ text: a.message + also, error: false, link: a.invitation?.link ?? null });
          load();
          rereadInvitations();
        }}
        onError={(text) => setNote({ text, error: true })}
      />
      {note && <AddNote note={note} listAbove={invitations} />}
    </section>
  );
}

/**
 * The add form's answer, brought into view under the form (a long invitation link can push it down).
 * The add also rereads the pending invitations above the form: the new one pushes the note down once
 * that answer comes, so it is brought into view again then (`listAbove`), and only then: a later
 * reread (a row's act further up) must not pull the page back down to an old note.
 */
function AddNote({ note, listAbove }: { note: { text: string; error: boolean; link?: string | null }; listAbove: unknown }) {
  const box = useRef<HTMLDivElement>(null);
  /** The list as it stood when an add's note came, until the add's own reread answers (a few seconds at most). */
  const waiting = useRef<{ list: unknown; until: number } | null>(null);
  useEffect(() => {
    waiting.current = note.error ? null : { list: listAbove, until: performance.now() + 5000 };
    box.current?.scrollIntoView?.({ block: 'nearest' });
  }, [note]);
  useEffect(() => {
    const w = waiting.current;
    if (!w || w.list === listAbove) return;
    waiting.current = null;
    if (performance.now() <= w.until) box.current?.scrollIntoView?.({ block: 'nearest' });
  }, [listAbove]);
  return (
    <div
      ref={box}
      class={`add-note ${note.error ? 'error-box' : 'info'}`}
      role={note.error ? 'alert' : 'status'}
      data-testid="members-note"
    >
      <p>{note.text}</p>
      {note.link && <InvitationLink link={location.origin + note.link} />}
    </div>
  );
}

/**
 * The one-time link on a line of its own (a phone broke it mid-word after its label), with a button
 * that copies it: a manager handing it over should not have to select 80 characters by hand. Where
 * the browser refuses the clipboard (a page served over plain http on the local network), the
 * link is selected instead, for the phone's own Copy.
 */
function InvitationLink({ link }: { link: string }) {
  const code = useRef<HTMLElement>(null);
  const [copied, setCopied] = useState<'no' | 'yes' | 'selected'>('no');
  const select = (): void => {
    const el = code.current;
    const range = el ? document.createRange() : null;
    if (!el || !range) return;
    range.selectNodeContents(el);
    window.getSelection()?.removeAllRanges();
    window.getSelection()?.addRange(range);
  };
  const copy = async (): Promise<void> => {
    try {
      await navigator.clipboard.writeText(link);
      setCopied('yes');
    } catch {
      select();
      setCopied('selected');
    }
  };
  return (
    <div class="invitation-link">
      <p>One-time link, shown only now:</p>
      <code ref={code} data-testid="invitation-link">
        {link}
      </code>
      <button type="button" class="btn btn-secondary" data-testid="copy-invitation-link" onClick={() => void copy()}>
        {copied === 'yes' ? 'Copied' : 'Copy link'}
      </button>
      {copied === 'selected' && <p class="hint">This browser did not allow copying: the link is selected, copy it from there.</p>}
    </div>
  );
}

/**
 * A new initial password for a member, typed on the page under their row (it was the browser's own
 * prompt, which showed the password in plain text and could not say why the server refused it).
 * Hidden as it is typed unless Show is on; the server's refusal stays under the field.
 */
function ResetPasswordForm({
  email,
  onReset,
  onDone,
  onCancel,
}: {
  email: string;
  onReset: (password: string) => Promise<unknown>;
  onDone: () => void;
  onCancel: () => void;
}) {
  const [password, setPassword] = useState('');
  const [show, setShow] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => input.current?.focus(), []);
  // A refusal and the form's buttons are brought above the notices at the screen's foot (on a phone
  // they covered both); an earlier act's "… removed." is not read beside the refusal.
  useEffect(() => {
    if (!error) return undefined;
    const frame = requestAnimationFrame(() => clearOfToasts(form.current?.querySelector('.reset-acts') ?? null));
    return () => cancelAnimationFrame(frame);
  }, [error]);
  const submit = async (e: Event): Promise<void> => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await onReset(password);
      onDone();
    } catch (err) {
      dropConfirmations();
      setError(messageOf(err));
      input.current?.focus();
    } finally {
      setBusy(false);
    }
  };
  const errorId = `reset-error-${email}`;
  const inputId = `reset-input-${email}`;
  const field = {
    ref: input,
    id: inputId,
    autoComplete: 'new-password',
    value: password,
    'aria-invalid': error !== null,
    'aria-describedby': error ? errorId : undefined,
    onInput: (e: Event) => setPassword((e.currentTarget as HTMLInputElement).value),
  };
  return (
    // noValidate: the server's refusal is the one shown, in its words, under the field.
    <form ref={form} class="form reset-password" noValidate onSubmit={(e) => void submit(e)} data-testid="reset-password-form">
      <label for={inputId}>
        New initial password for <bdi>{email}</bdi>, to hand over in person (8 characters or more). Only for an account this venue
        created and its holder has not changed.
      </label>
      <span class="reset-input">
        {/* Two elements, not one whose type changes: Preact types a password input apart from a text one. */}
        {show ? <input type="text" {...field} /> : <input type="password" {...field} />}
        <button
          type="button"
          class="btn btn-secondary"
          data-testid="reset-password-show"
          aria-pressed={show}
          onClick={() => {
            setShow((v) => !v);
            // The field is another element now: the cursor goes back into it.
            setTimeout(() => input.current?.focus());
          }}
        >
          {show ? 'Hide' : 'Show'}
        </button>
      </span>
      {error && (
        <p class="error" role="alert" id={errorId} data-testid="reset-password-error">
          {error}
        </p>
      )}
      <div class="reset-acts">
        <button type="submit" class="btn btn-primary" disabled={busy || password === ''}>
          Set password
        </button>
        <button type="button" class="btn btn-secondary" disabled={busy} onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function AddMemberForm({
  venueId,
  actor,
  known,
  prefill,
  onAdded,
  onError,
}: {
  venueId: string;
  /** The signed-in member's role: the roles offered are those it may grant. */
  actor: Role;
  /** Members and open invitations: an address among them starts on its role (a manager re-added stays a manager). */
  known: Array<{ email: string; role: Role }>;
  /** Fills the form (Invite again on a pending invitation). */
  prefill: { email: string; name: string; n: number } | null;
  /** `replaced`: the open invitation to the same address this add ended, if there was one. */
  onAdded: (a: AddMemberAnswer, replaced?: PendingInvitation) => void;
  onError: (t: string) => void;
}) {
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  /** The role the manager picked for this address; until then, the one the address has or was invited as. */
  const [chosen, setChosen] = useState<Role | null>(null);
  const [busy, setBusy] = useState(false);
  const address = email.trim().toLowerCase();
  const theirs = address ? known.find((k) => k.email.toLowerCase() === address)?.role : undefined;
  const role: Role = chosen ?? (theirs && manages(actor, theirs) ? theirs : 'host');
  const emailInput = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (!prefill) return;
    setEmail(prefill.email);
    setName(prefill.name);
    setChosen(null);
    emailInput.current?.scrollIntoView?.({ block: 'center' });
    emailInput.current?.focus();
  }, [prefill]);
  const submit = async (e: Event): Promise<void> => {
    e.preventDefault();
    setBusy(true);
    try {
      // Read first (a failed read only costs the note its last sentence).
      const open = await staffApi.invitations(venueId).catch((): PendingInvitation[] => []);
      const answer = await staffApi.add(venueId, {
        email: email.trim(),
        role,
        ...(name.trim() ? { name: name.trim() } : {}),
        ...(password ? { password } : {}),
      });
      onAdded(
        answer,
        open.find((i) => i.email.toLowerCase() === address),
      );
      setEmail('');
      setName('');
      setPassword('');
      setChosen(null);
    } catch (err) {
      onError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="form" onSubmit={(e) => void submit(e)} data-testid="add-member">
      <h3>Add someone</h3>
      <label>
        Email
        <input
          ref={emailInput}
          type="email"
          required
          value={email}
          onInput={(e) => {
            const typed = e.currentTarget.value;
            setEmail(typed);
            // Someone already here or invited: their role, over the one picked before the address was typed.
            if (known.some((k) => k.email.toLowerCase() === typed.trim().toLowerCase())) setChosen(null);
          }}
        />
      </label>
      <label>
        Name
        <input value={name} onInput={(e) => setName(e.currentTarget.value)} />
      </label>
      <label>
        Initial password (optional, 8 characters or more: used only for a brand-new account; without one they get an invitation)
        <input
          type="password"
          autoComplete="new-password"
          minLength={8}
          value={password}
          onInput={(e) => setPassword(e.currentTarget.value)}
        />
      </label>
      <label>
        Role
        <select value={role} data-testid="add-member-role" onChange={(e) => setChosen(e.currentTarget.value as Role)}>
          {ROLES.filter((r) => manages(actor, r)).map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" class="btn btn-primary" disabled={busy || email.trim() === ''}>
        Add
      </button>
    </form>
  );
}
