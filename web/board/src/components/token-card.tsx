import { useEffect, useState } from 'preact/hooks';
import QRCode from 'qrcode';
import { Modal } from './modal';

/** Groups of four, so a host can read the token out and a party can copy it down. */
export function tokenGroups(token: string): string[] {
  return token.match(/.{1,4}/g) ?? [token];
}

interface Props {
  name: string;
  /** What the party was told (position and wait), when it just joined. */
  quote?: string;
  token: string | null;
  onDone: () => void;
}

/**
 * The party's queue token, shown this once (the API never shows it again): large, in groups of four
 * in a typeface that tells 0 from O and 1 from l, and as a QR code. It closes only with its button,
 * never with a stray tap; a lost token is replaced from the party's row.
 */
export function TokenCard({ name, quote, token, onDone }: Props) {
  const [svg, setSvg] = useState<string | null>(null);
  useEffect(() => {
    if (!token) return;
    let live = true;
    QRCode.toString(token, { type: 'svg', errorCorrectionLevel: 'M', margin: 1 }).then(
      (s) => live && setSvg(s),
      () => live && setSvg(null),
    );
    return () => {
      live = false;
    };
  }, [token]);
  return (
    <Modal title={`${name}: their queue code`} testId="token-card">
      {quote && <p class="quote">{quote}</p>}
      {token ? (
        <div class="token-block">
          {/* The SVG comes from the QR library, built from the token alone. */}
          <div
            class="qr"
            data-testid="token-qr"
            role="img"
            aria-label="QR code of the queue code"
            dangerouslySetInnerHTML={svg ? { __html: svg } : undefined}
          />
          <div>
            <p class="muted">Shown only now. Let the party photograph the square or copy the code.</p>
            <output class="token" data-testid="queue-token" data-token={token}>
              {tokenGroups(token).map((g, i) => (
                <span key={i}>{g}</span>
              ))}
            </output>
          </div>
        </div>
      ) : (
        <p class="empty">This was already done once; the code was shown then. Give the party a new code from their row.</p>
      )}
      <button type="button" class="btn btn-primary wide" data-testid="token-done" onClick={onDone}>
        Done, handed over
      </button>
    </Modal>
  );
}
