import { useEffect, useRef } from 'preact/hooks';
import { say } from '../state/notice';

interface Detector {
  detect(source: HTMLVideoElement): Promise<Array<{ rawValue: string }>>;
}
type DetectorClass = new (options: { formats: string[] }) => Detector;

const detectorClass = (): DetectorClass | undefined => (window as unknown as { BarcodeDetector?: DetectorClass }).BarcodeDetector;

/** Whether this browser can read a QR code from the tablet's camera (Chromium on Android and ChromeOS can). */
export function canScan(): boolean {
  return detectorClass() !== undefined && typeof navigator.mediaDevices?.getUserMedia === 'function';
}

/** How often a camera frame is looked at for a QR code. */
const SCAN_EVERY_MS = 300;

/**
 * The camera's picture, read for a QR code; the first one found is handed on. A queue link
 * (`…/q/#<code>`) gives the code after its `#`.
 */
export function QrScanner({ onCode }: { onCode: (code: string) => void }) {
  const video = useRef<HTMLVideoElement>(null);
  // The latest handler, without restarting the camera each time the page re-renders.
  const handler = useRef(onCode);
  handler.current = onCode;
  useEffect(() => {
    const Detector = detectorClass();
    if (!Detector) return;
    const detector = new Detector({ formats: ['qr_code'] });
    let stream: MediaStream | null = null;
    let stopped = false;
    const look = async (): Promise<void> => {
      if (stopped || !video.current) return;
      const found = await detector.detect(video.current).catch(() => []);
      const raw = found[0]?.rawValue;
      if (raw) handler.current(raw.includes('#') ? raw.slice(raw.lastIndexOf('#') + 1) : raw);
      else window.setTimeout(() => void look(), SCAN_EVERY_MS);
    };
    void (async () => {
      try {
        stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' } });
        if (stopped || !video.current) return;
        video.current.srcObject = stream;
        await video.current.play();
        void look();
      } catch {
        say('error', 'The camera cannot be opened here. Type the code instead.');
      }
    })();
    return () => {
      stopped = true;
      stream?.getTracks().forEach((t) => t.stop());
    };
  }, []);
  return <video ref={video} class="scanner" muted playsInline aria-label="Camera picture for the QR code" />;
}
