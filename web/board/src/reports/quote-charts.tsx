import { useMemo } from 'preact/hooks';
import uPlot, { type AlignedData, type Options } from 'uplot';
import { quotedBy, type QuoteModel, type ReportEntry } from './report-types';
import { UplotChart } from './uplot-chart';

const COLOR: Record<QuoteModel, string> = { turns: '#a8321f', floor: '#1f5f4a' };
const BIN_MINUTES = 10;

/**
 * Quoted against actual minutes, one dot per offered party, with the line where they are equal:
 * dots above the line were quoted too long, below too short.
 */
export function QuoteScatter({ entries, model }: { entries: ReportEntry[]; model: QuoteModel }) {
  const { options, data } = useMemo(() => {
    const points = entries
      .map((e) => [e.actualMinutes, quotedBy(e, model)] as const)
      .filter((p): p is readonly [number, number] => p[1] !== null)
      .sort((a, b) => a[0] - b[0]);
    const xs = points.map((p) => p[0]);
    const top = Math.max(10, ...points.map((p) => Math.max(p[0], p[1])));
    const data: AlignedData = [xs, points.map((p) => p[1]), xs];
    const options: Omit<Options, 'width' | 'height'> = {
      scales: { x: { time: false, range: [0, top] }, y: { range: [0, top] } },
      axes: [{ label: 'actual wait (min)' }, { label: 'quoted (min)' }],
      legend: { show: false },
      cursor: { show: false },
      series: [
        {},
        { label: 'quoted', stroke: COLOR[model], paths: () => null, points: { show: true, size: 7, fill: COLOR[model] } },
        { label: 'quoted = actual', stroke: '#6b665b', dash: [4, 4], points: { show: false } },
      ],
    };
    return { options, data };
  }, [entries, model]);
  return <UplotChart options={options} data={data} testId={`scatter-${model}`} />;
}

const WHOLE_STEPS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000];

/** How far off the quotes were, in 10-minute bins of (quoted − actual): right of 0 means quoted too long. */
export function ErrorHistogram({ entries, model }: { entries: ReportEntry[]; model: QuoteModel }) {
  const { options, data } = useMemo(() => {
    const errors = entries
      .map((e) => quotedBy(e, model))
      .flatMap((q, i) => (q === null ? [] : [q - (entries[i]?.actualMinutes ?? 0)]));
    const low = Math.floor(Math.min(0, ...errors) / BIN_MINUTES) * BIN_MINUTES;
    const high = Math.floor(Math.max(0, ...errors) / BIN_MINUTES) * BIN_MINUTES;
    const bins: number[] = [];
    for (let b = low; b <= high; b += BIN_MINUTES) bins.push(b);
    const counts = bins.map((b) => errors.filter((e) => e >= b && e < b + BIN_MINUTES).length);
    const data: AlignedData = [bins.map((b) => b + BIN_MINUTES / 2), counts];
    const options: Omit<Options, 'width' | 'height'> = {
      scales: { x: { time: false, range: [low, high + BIN_MINUTES] }, y: { range: [0, Math.max(1, ...counts)] } },
      // Parties are whole: ticks step by whole numbers (uPlot's defaults put 0.5 and 1.5 on a short axis).
      axes: [{ label: 'quoted − actual (min)' }, { label: 'parties', incrs: WHOLE_STEPS }],
      legend: { show: false },
      cursor: { show: false },
      series: [
        {},
        {
          label: 'parties',
          stroke: COLOR[model],
          fill: `${COLOR[model]}99`,
          paths: uPlot.paths.bars?.({ size: [0.9, 80] }),
          points: { show: false },
        },
      ],
    };
    return { options, data };
  }, [entries, model]);
  return <UplotChart options={options} data={data} height={200} testId={`histogram-${model}`} />;
}
