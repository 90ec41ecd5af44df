// evalgraph.js - the evaluation graph of a reviewed game: a win chance (0-100 %) per
// position, drawn by uPlot, the charting library the server serves from npm's package
// (src/web/vendor) when it was installed at build; without it, loadChart says so and
// the review shows its figures in words only. Clicking the graph picks a position.
import { t } from './i18n.js';

let loading = null;

// Resolves to the uPlot class, or null when the server has no copy of it.
export function loadChart() {
  if (!loading) {
    loading = import('/vendor/uPlot.esm.js').then((m) => {
      const css = document.createElement('link');
      css.rel = 'stylesheet';
      css.href = '/vendor/uPlot.min.css';
      document.head.append(css);
      return m.default;
    }).catch(() => null);
  }
  return loading;
}

// Draws into box the values ys (percent, null where unknown) over plies 0..n; returns
// {update(ys), mark(ply)}. onPick(ply) is called when a position is clicked.
export function evalGraph(UPlot, box, ys, label, onPick) {
  const xs = ys.map((_, i) => i);
  const size = () => ({ width: Math.max(200, box.clientWidth || 300), height: 170 });
  const opts = {
    ...size(),
    legend: { show: false },
    cursor: { drag: { x: false, y: false } },
    scales: { x: { time: false }, y: { range: [0, 100] } },
    axes: [{ label: t('review.axis-action'), size: 36, incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500] }, { label: t('review.axis-pct'), size: 46 }],
    series: [{}, { label, stroke: '#8c2f39', width: 2, fill: 'rgba(140,47,57,0.12)', spanGaps: true, points: { show: false } }],
  };
  const u = new UPlot(opts, [xs, ys], box);
  u.over.addEventListener('click', () => { if (u.cursor.idx !== null && u.cursor.idx !== undefined) onPick(u.cursor.idx); });
  new ResizeObserver(() => u.setSize(size())).observe(box);
  return {
    update(values) { u.setData([xs, values]); },
  };
}
