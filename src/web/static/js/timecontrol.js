// timecontrol.js - the new-game form's clock: none, minutes and an increment per turn
// (a preset such as lichess's 1+1, or both typed in), or days per move, as the API's
// "clock" field (docs/API.md, "Clocks"). Clocks are for games between people; the server
// refuses one with an AI seat and says so.
import { h } from './dom.js';
import { t } from './i18n.js';

// Correspondence: the days per move players of such games choose among.
const CHOICES = ['', '60+0', '60+1', '180+2', '300+3', '600+5', '900+10', '1800+0', '1d', '2d', '3d', '5d', '7d', '14d', 'custom'];

// A choice in words: "5 minutes + 3 s a turn", "1 day per move".
function choiceWords(v) {
  if (v === '') return t('clock.none');
  if (v === 'custom') return t('clock.custom');
  if (v.endsWith('d')) return t('clock.days', { count: Number(v.slice(0, -1)) });
  const [initial, increment] = v.split('+').map(Number);
  const base = t('clock.minutes', { count: initial / 60 });
  return increment ? t('clock.per-turn', { base, s: increment }) : base;
}

// The field; `id` names its select (and, after it, its own inputs) where a page has two.
export function timeControlField(id = 'clock') {
  const select = h('select', { id, name: 'clock' }, ...CHOICES.map((v) => h('option', { value: v }, choiceWords(v))));
  // The server's bounds (three hours, ten minutes): the browser says what is out of them.
  const minutes = h('input', { id: `${id}-minutes`, class: 'clock-minutes', type: 'number', min: 0.25, max: 180, step: 0.25, value: 5, required: true });
  const increment = h('input', { id: `${id}-increment`, class: 'clock-increment', type: 'number', min: 0, max: 600, step: 1, value: 3, required: true });
  const own = h('span', { class: 'clock-own', hidden: true },
    h('label', {}, minutes, ` ${t('clock.own-minutes')}`), ' + ', h('label', {}, increment, ` ${t('clock.own-seconds')}`));
  const sync = () => {
    own.hidden = select.value !== 'custom';
    minutes.disabled = increment.disabled = own.hidden; // a hidden field is not checked
  };
  select.addEventListener('change', sync);
  sync();
  return h('div', { class: 'field clock-field' }, h('label', { class: 'name', for: id }, t('clock.clock')),
    h('span', {}, select, ' ', own),
    h('span', { class: 'help' }, t('clock.help')));
}

// The "clock" of a creation request from the field, or undefined for none.
export function readTimeControl(field) {
  const v = field.querySelector('select').value;
  if (!v) return undefined;
  if (v === 'custom') {
    return {
      initial: Math.round(Number(field.querySelector('.clock-minutes').value) * 60),
      increment: Number(field.querySelector('.clock-increment').value),
    };
  }
  if (v.endsWith('d')) return { days: Number(v.slice(0, -1)) };
  const [initial, increment] = v.split('+').map(Number);
  return { initial, increment };
}
