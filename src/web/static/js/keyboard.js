// keyboard.js - playing on a drawn board without a mouse: the board is one stop of the
// Tab order (on the selected piece, else the first that may move), the arrow keys go to
// the nearest square in that direction, Enter or Space clicks it (select, then move:
// the page's own click handling). Every square and every clickable thing a drawer marks
// (data-cell, data-moves) gets a role and a name a screen reader says ("c1, soldier,
// may move"). Works from where the squares are drawn, so hexagons and the King of the
// Valley table need nothing of their own; redraws keep the focus where it was.

import { t } from './i18n.js';

const ITEMS = '[data-cell], [data-moves]';
// A square's marks by class, said with the message keys.square.CLASS.
const STATES = ['selected', 'target', 'movable', 'last', 'hint'];

const keyOf = (e) => (e.hasAttribute('data-cell') ? `c:${e.getAttribute('data-cell')}` : `m:${e.getAttribute('data-moves')}`);

// What a square shows in words: its visible text first (a tile's letter and name: a
// name must contain what is seen), then its piece's title and its marks.
function nameOf(e) {
  const seen = [...e.querySelectorAll('text')].map((t) => t.textContent.trim()).filter(Boolean).join(' ');
  if (!e.hasAttribute('data-cell')) {
    const play = t('keys.play', { moves: e.getAttribute('data-moves').split('|').join(` ${t('keys.or')} `) });
    return seen ? `${seen}: ${play}` : play;
  }
  const parts = [e.getAttribute('data-cell')];
  if (seen) parts.push(seen);
  const piece = e.querySelector('.piece title, title');
  if (piece && piece.textContent) parts.push(piece.textContent);
  for (const cls of STATES) if (e.classList.contains(cls)) parts.push(t(`keys.square.${cls}`));
  return parts.join(', ');
}

// The item nearest to `from` in direction (dx, dy): ahead of it, the distance along the
// direction counting less than the distance across it.
function nearest(items, from, dx, dy) {
  const centre = (e) => { const r = e.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; };
  const [x0, y0] = centre(from);
  let best = null;
  let bestCost = Infinity;
  for (const e of items) {
    if (e === from) continue;
    const [x, y] = centre(e);
    const along = (x - x0) * dx + (y - y0) * dy;
    const across = Math.abs((x - x0) * dy - (y - y0) * dx);
    if (along <= 1) continue;
    const cost = along + 2 * across;
    if (cost < bestCost) { bestCost = cost; best = e; }
  }
  return best;
}

const ARROWS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

export function keyboardBoard(box) {
  let current = null; // the key of the item that has (or last had) the focus
  let inside = false; // the focus is on the board (or was when a redraw took it away)

  function prepare() {
    const svg = box.querySelector('svg');
    if (!svg) return;
    // The drawing is a group of controls now, not a picture whose parts are hidden.
    svg.setAttribute('role', 'group');
    const items = [...svg.querySelectorAll(ITEMS)];
    if (!items.length) return;
    // Only the stop takes the focus (a click elsewhere leaves it be), so the drawing
    // is the same however it was used.
    for (const e of items) {
      e.removeAttribute('tabindex');
      e.setAttribute('role', 'button');
      e.setAttribute('aria-label', nameOf(e));
      // Texts drawn side by side are read as one word ("Ccountess3") unless they end in
      // a space, which SVG does not draw: the name then contains what is seen, word for
      // word, as it must.
      for (const t of e.querySelectorAll('text')) if (!t.textContent.endsWith(' ')) t.append(' ');
    }
    const stop = items.find((e) => keyOf(e) === current)
      || svg.querySelector('.selected[data-cell]') || svg.querySelector('.movable[data-cell]') || items[0];
    stop.setAttribute('tabindex', '0');
    if (inside && (document.activeElement === document.body || !document.activeElement)) stop.focus({ preventScroll: true });
  }

  function moveTo(e) {
    for (const o of box.querySelectorAll('[tabindex="0"]')) o.removeAttribute('tabindex');
    e.setAttribute('tabindex', '0');
    current = keyOf(e);
    e.focus({ preventScroll: true });
  }

  // A click plays as before and leaves the focus be: the keyboard's place on the board
  // is the keyboard's alone, so a drawing does not depend on where the mouse went.
  box.addEventListener('mousedown', (ev) => { if (ev.target.closest(ITEMS)) ev.preventDefault(); });
  box.addEventListener('focusin', (ev) => {
    inside = true;
    const e = ev.target.closest(ITEMS);
    if (e) current = keyOf(e);
  });
  box.addEventListener('focusout', (ev) => {
    if (ev.relatedTarget && !box.contains(ev.relatedTarget)) inside = false;
  });
  box.addEventListener('keydown', (ev) => {
    const e = ev.target.closest && ev.target.closest(ITEMS);
    if (!e) return;
    if (ARROWS[ev.key]) {
      ev.preventDefault();
      const next = nearest([...box.querySelectorAll(ITEMS)], e, ...ARROWS[ev.key]);
      if (next) moveTo(next);
    } else if (ev.key === 'Enter' || ev.key === ' ') {
      ev.preventDefault();
      e.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    }
  });
  new MutationObserver(prepare).observe(box, { childList: true });
  prepare();
}
