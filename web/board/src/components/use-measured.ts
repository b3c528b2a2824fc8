import { useLayoutEffect, useRef, useState } from 'preact/hooks';

/** 1rem in pixels, as the page is zoomed now. */
export const rootRem = (): number => parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;

/**
 * What `measure` reads off an element, kept current as the element resizes (and, with
 * `onWindowResize`, as the window does: a measure that reads the screen's height). A new value is
 * set only when it differs, so a measure that drives the element's own size cannot loop. Answers
 * the ref to put on the element and the latest value (`initial` until the element is there).
 */
export function useMeasured<T>(
  initial: T,
  measure: (el: HTMLElement) => T,
  onWindowResize = false,
): [(el: HTMLElement | null) => void, T] {
  const [el, setEl] = useState<HTMLElement | null>(null);
  const [value, setValue] = useState(initial);
  const last = useRef('');
  const latest = useRef(measure);
  latest.current = measure;
  useLayoutEffect(() => {
    if (!el) return undefined;
    const update = (): void => {
      const next = latest.current(el);
      const key = JSON.stringify(next);
      if (key !== last.current) {
        last.current = key;
        setValue(next);
      }
    };
    update();
    const observer = new ResizeObserver(update);
    observer.observe(el);
    if (onWindowResize) window.addEventListener('resize', update);
    return () => {
      observer.disconnect();
      if (onWindowResize) window.removeEventListener('resize', update);
    };
  }, [el, onWindowResize]);
  return [setEl, value];
}
