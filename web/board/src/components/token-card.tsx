import { useEffect, useState } from 'preact/hooks';
import QRCode from 'qrcode';
import type { JoinResult } from '../api/types';
import { Modal } from './modal';
import { queueLink } from '../queue-link';

/** Groups of four, so a host can read the token out and a party can copy it down. */
function groups(token: string): string[] {
  return token.match(/.{1,4}/g) ?? [token];
}

/**
 * The new queue token, shown this once (the API never shows it again): large, and as a QR code of
 * the party's queue link (`…/q/#<token>`), which the party scans to follow its place, or the desk
 * scanner reads back at "Redeem at the desk".
 */
export function TokenCard({
  joined,
  queuePage,
  onClose,
}: {
  joined: JoinResult;
  queuePage?: string | null;
  onClose: () => void;
}) {
  const [svg, setSvg] = useState<string | null>(null);
  const token = joined.queueToken;
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
    <Modal title={`${joined.entry.name} joined the queue`} onClose={onClose} testId="token-card">
      <p class="quote">{joined.quote}</p>
      {token ? (
        <div class="token-block">
          {/* The SVG comes from the QR library, built from the token alone. */}
          <div
            class="qr"
            data-testid="token-qr"
            data-link={link ?? undefined}
            role="img"
            aria-label="QR code of the queue link"
            dangerouslySetInnerHTML={svg ? { __html: svg } : undefined}
          />
          <div>
            <p class="muted">Queue token: shown only now. The party scans the code to follow its place.</p>
            <output class="token" data-testid="queue-token" data-token={token}>
              {groups(token).map((g, i) => (
                <span key={i}>{g}</span>
              ))}
            </output>
          </div>
        </div>
      ) : (
        <p class="empty">This join was already recorded; its token was shown the first time and cannot be shown again.</p>
      )}
      <button type="button" class="btn btn-primary wide" data-testid="token-done" onClick={onClose}>
        Done, handed over
      </button>
    </Modal>
  );
}
