import { useEffect, useState } from 'preact/hooks';
import QRCode from 'qrcode';
import { Modal } from './modal';
import { queueLink } from '../queue-link';

/** Groups of four, so a host can read the token out and a party can copy it down. */
export function tokenGroups(token: string): string[] {
  return token.match(/.{1,4}/g) ?? [token];
}

interface Props {
  name: string;
  /** What the party was told (position and wait), when it just joined. */
  quote?: string;
  token: string | null;
  /** The guest page on PUBLIC_URL (the board snapshot's `queuePage`), or null: the board's own origin. */
  queuePage?: string | null;
  /** Who follows the code: a restaurant's party, a seat pool's (a workshop's) group. */
  who?: 'party' | 'group';
  onDone: () => void;
}

/**
 * The party's queue token, shown this once (the API never shows it again): large, in groups of four
 * in a typeface that tells 0 from O and 1 from l, and as a QR code of the party's queue link
 * (`…/q/#<token>`): the party scans it to follow its place, the desk's "Find by code" reads it back. It closes only with its button,
 * never with a stray tap; a lost token is replaced from the party's row.
 */
export function TokenCard({ name, quote, token, queuePage, who = 'party', onDone }: Props) {
  const [svg, setSvg] = useState<string | null>(null);
  const link = token ? queueLink(token, queuePage) : null;
  useEffect(() => {
    if (!link) return;
    let live = true;
    QRCode.toString(link, { type: 'svg', errorCorrectionLevel: 'M', margin: 1 }).then(
      (s) => live && setSvg(s),
      () => live && setSvg(null),
    );
    return () => {
      live = false;
    };
  }, [link]);
  return (
    <Modal title={`${name}: their queue code`} testId="token-card">
      {quote && <p class="quote">{quote}</p>}
      {token ? (
        <div class="token-block">
          {/* The SVG comes from the QR library, built from the queue link alone. */}
          <div
            class="qr"
            data-testid="token-qr"
            data-link={link ?? undefined}
            role="img"
            aria-label={`QR code of the ${who}'s queue link`}
            dangerouslySetInnerHTML={svg ? { __html: svg } : undefined}
          />
          <div>
            <p class="muted">
              Shown only now. The {who} scans the square to follow its place; the code finds them under Find by code.
            </p>
            <output class="token" data-testid="queue-token" data-token={token}>
              {tokenGroups(token).map((g, i) => (
                <span key={i}>{g}</span>
              ))}
            </output>
          </div>
        </div>
      ) : (
        <p class="empty">This was already done once; the code was shown then. Give the {who} a new code from their row.</p>
      )}
      <button type="button" class="btn btn-primary wide" data-testid="token-done" onClick={onDone}>
        Done, handed over
      </button>
    </Modal>
  );
}
