// timecontrol.js - the new-game form's clock: none, minutes and an increment per turn
// (a preset such as lichess's 1+1, or both typed in), or days per move, as the API's
// "clock" field (docs/API.md, "Clocks"). Clocks are for games between people; the server
// refuses one with an AI seat and says so.
import { h } from './dom.js';

const CHOICES = [
  ['', 'no clock'],
  ['60+0', '1 minute'],
  ['60+1', '1 minute + 1 s a turn'],
  ['180+2', '3 minutes + 2 s a turn'],
  ['300+3', '5 minutes + 3 s a turn'],
  ['600+5', '10 minutes + 5 s a turn'],
  ['900+10', '15 minutes + 10 s a turn'],
  ['1800+0', '30 minutes'],
  ['1d', '1 day per move'],
  ['3d', '3 days per move'],
  ['7d', '7 days per move'],
  ['custom', 'my own: minutes and seconds a turn'],
];

export function timeControlField() {
  const select = h('select', { id: 'clock', name: 'clock' }, ...CHOICES.map(([v, text]) => h('option', { value: v }, text)));
  // The server's bounds (three hours, ten minutes): the browser says what is out of them.
  const minutes = h('input', { id: 'clock-minutes', type: 'number', min: 0.25, max: 180, step: 0.25, value: 5, required: true });
  const increment = h('input', { id: 'clock-increment', type: 'number', min: 0, max: 600, step: 1, value: 3, required: true });
  const own = h('span', { class: 'clock-own', hidden: true },
    h('label', {}, minutes, ' minutes'), ' + ', h('label', {}, increment, ' seconds a turn'));
  const sync = () => {
    own.hidden = select.value !== 'custom';
    minutes.disabled = increment.disabled = own.hidden; // a hidden field is not checked
  };
  select.addEventListener('change', sync);
  sync();
  return h('div', { class: 'field clock-field' }, h('label', { class: 'name', for: 'clock' }, 'Clock'),
    h('span', {}, select, ' ', own),
    h('span', { class: 'help' }, 'for games between people: a player whose time runs out loses'));
}

// The "clock" of a creation request from the field, or undefined for none.
export function readTimeControl(field) {
  const v = field.querySelector('select').value;
  if (!v) return undefined;
  if (v === 'custom') {
    return {
      initial: Math.round(Number(field.querySelector('#clock-minutes').value) * 60),
      increment: Number(field.querySelector('#clock-increment').value),
    };
  }
  if (v.endsWith('d')) return { days: Number(v.slice(0, -1)) };
  const [initial, increment] = v.split('+').map(Number);
  return { initial, increment };
}
