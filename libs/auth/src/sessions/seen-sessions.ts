/**
 * Digests of the staff sessions this process has seen live (opened here, or a request admitted), with
 * their expiry. Only a hint, never an admission: the board's handshake limit (BoardHandshakeLimiter)
 * refuses an address past its failures before reading any session, and a restaurant's tablets share
 * their address with whoever else is on its Wi-Fi; a token seen here is still read (the read decides),
 * so a script's made-up tokens cannot lock the host's tablets out. Bounded, the oldest dropped first.
 */
export class SeenSessions {
  private readonly kept = new Map<string, number>();

  constructor(private readonly limit = 20_000) {}

  note(digest: string, expiresAt: Date): void {
    // Every admitted request passes here: a digest already kept costs one lookup, nothing more.
    if (this.kept.has(digest)) return;
    if (this.kept.size >= this.limit) this.kept.delete(this.kept.keys().next().value as string);
    this.kept.set(digest, expiresAt.getTime());
  }

  /** Whether a session with this digest was seen live and has not run out by `now`. */
  has(digest: string, now: Date): boolean {
    const until = this.kept.get(digest);
    return until !== undefined && now.getTime() < until;
  }
}
