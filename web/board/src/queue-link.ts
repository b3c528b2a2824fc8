/**
 * The party's queue link: the guest page with the token in the fragment (`…/q/#<token>`), which a
 * browser keeps to itself (never sent to a server, never in a log). PUBLIC_URL sets the origin
 * (the board snapshot's `queuePage`); without it, the board's own origin.
 */
export function queueLink(token: string, queuePage?: string | null): string {
  return `${queuePage ?? `${window.location.origin}/q/`}#${token}`;
}

/** What a scanner or a host typed: a bare token, or a queue link (the token is its fragment). */
export function tokenFrom(input: string): string {
  const hash = input.indexOf('#');
  return (hash >= 0 ? input.slice(hash + 1) : input).replace(/\s+/g, '');
}
