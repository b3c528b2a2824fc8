import { useEffect, useRef } from 'preact/hooks';
import uPlot, { type AlignedData, type Options } from 'uplot';
import 'uplot/dist/uPlot.min.css';

interface Props {
  options: Omit<Options, 'width' | 'height'>;
  data: AlignedData;
  height?: number;
  testId?: string;
}

/** One uPlot chart, sized to its container's width, rebuilt when its data changes. */
export function UplotChart({ options, data, height = 240, testId }: Props) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return undefined;
    const chart = new uPlot({ ...options, width: Math.max(240, el.clientWidth), height }, data, el);
    const resize = new ResizeObserver(() => chart.setSize({ width: Math.max(240, el.clientWidth), height }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [options, data, height]);
  return <div class="chart" ref={box} data-testid={testId} />;
}
