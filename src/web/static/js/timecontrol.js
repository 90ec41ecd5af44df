// timecontrol.js - the new-game form's clock: none, minutes and an increment per turn,
// or days per move, as the API's "clock" field (docs/API.md, "Clocks"). Clocks are for
// games between people; the server refuses one with an AI seat and says so.
import { h } from './dom.js';

const CHOICES = [
  ['', 'no clock'],
  ['60+0', '1 minute'],
  ['180+2', '3 minutes + 2 s a turn'],
  ['300+3', '5 minutes + 3 s a turn'],
  ['600+5', '10 minutes + 5 s a turn'],
  ['900+10', '15 minutes + 10 s a turn'],
  ['1800+0', '30 minutes'],
  ['1d', '1 day per move'],
  ['3d', '3 days per move'],
  ['7d', '7 days per move'],
];

export function timeControlField() {
  const select = h('select', { id: 'clock', name: 'clock' }, ...CHOICES.map(([v, text]) => h('option', { value: v }, text)));
  return h('label', { class: 'field' }, h('span', { class: 'name' }, 'clock'), select,
    h('span', { class: 'help' }, 'for games between people: a player whose time runs out loses'));
}

// The "clock" of a creation request from the field, or undefined for none.
export function readTimeControl(field) {
  const v = field.querySelector('select').value;
  if (!v) return undefined;
  if (v.endsWith('d')) return { days: Number(v.slice(0, -1)) };
  const [initial, increment] = v.split('+').map(Number);
  return { initial, increment };
}
