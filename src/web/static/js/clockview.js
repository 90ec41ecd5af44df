// clockview.js - a game's clocks on its page: each seat's time left, the running one
// counting down between the server's states. The server keeps the time and decides when a
// flag falls; the page only shows what it was told, less the time since it was told.
import { h, seatWords } from './dom.js';
import { t } from './i18n.js';

// "4:05", "0:09", "1:02:03", or for slow games "2 d 5 h" and "7 h 12 min".
export function formatLeft(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const d = Math.floor(s / 86400);
  const hr = Math.floor((s % 86400) / 3600);
  const min = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  if (d > 0) return t('left.days', { d, h: hr });
  if (s >= 6 * 3600) return t('left.hours', { h: hr, min });
  const pad = (n) => String(n).padStart(2, '0');
  return hr > 0 ? `${hr}:${pad(min)}:${pad(sec)}` : `${min}:${pad(sec)}`;
}

export function describeControl(clock) {
  if (!clock) return t('clock.none');
  if (clock.days) return t('clock.days', { count: clock.days });
  const m = clock.initial / 60;
  const base = Number.isInteger(m) ? t('clock.min', { min: m }) : t('clock.sec', { s: clock.initial });
  return clock.increment ? t('clock.plus', { base, s: clock.increment }) : base;
}

export function createClocks() {
  const el = h('div', { id: 'clocks', class: 'clocks', hidden: true, role: 'group', 'aria-label': t('clock.clocks') });
  let state = null;
  let at = 0; // performance.now() when state came
  let timer = null;

  function tick() {
    const c = state && state.clock;
    if (!c) return;
    const gone = c.running === null ? 0 : performance.now() - at;
    for (const row of el.querySelectorAll('.clock')) {
      const seat = Number(row.dataset.seat);
      const left = c.left_ms[seat] - (seat === c.running ? gone : 0);
      row.querySelector('time').textContent = formatLeft(left);
      row.classList.toggle('low', !c.days && left < 10000);
    }
  }

  function update(st) {
    state = st;
    at = performance.now();
    const c = st.clock;
    el.hidden = !c;
    if (!c) return;
    el.replaceChildren(h('p', { class: 'control' }, describeControl(c)),
      ...c.left_ms.map((_, seat) => h('p', {
        class: `clock p${seat}${seat === c.running ? ' running' : ''}`, 'data-seat': seat,
      }, h('span', { class: 'swatch' }), ` ${seat === st.you ? t('seat.you', { seat: seatWords(seat) }) : seatWords(seat)} `, h('time', {}))));
    tick();
    clearInterval(timer);
    timer = c.running === null ? null : setInterval(tick, 200);
  }

  return { el, update };
}
