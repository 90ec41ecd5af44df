// notify.js - telling a player it is his turn while he looks elsewhere: the page title
// ("● Your turn - crown") and, if he turned it on, a short tone when the opponent moves,
// made with the Web Audio API (no sound files). The choice is kept in localStorage.
import { h } from './dom.js';
import { t } from './i18n.js';

const SOUND_KEY = 'crown.sound';
const BASE_TITLE = 'crown';

function soundOn() {
  try { return localStorage.getItem(SOUND_KEY) === 'on'; } catch { return false; }
}

let audio = null; // one context for the page: browsers limit how many there are
function beep() {
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx) return;
  audio = audio || new Ctx();
  const osc = audio.createOscillator();
  const gain = audio.createGain();
  osc.type = 'sine';
  osc.frequency.value = 660;
  const t = audio.currentTime;
  // A soft attack and decay: a click-free blip of 0.18 s.
  gain.gain.setValueAtTime(0.0001, t);
  gain.gain.exponentialRampToValueAtTime(0.2, t + 0.02);
  gain.gain.exponentialRampToValueAtTime(0.0001, t + 0.18);
  osc.connect(gain).connect(audio.destination);
  osc.start(t);
  osc.stop(t + 0.2);
}

export function yourTurn(st) {
  return st.you !== null && st.status === 'playing' && st.to_move === st.you;
}

export function createNotifier() {
  const box = h('input', { type: 'checkbox', id: 'sound-toggle' });
  box.checked = soundOn();
  box.addEventListener('change', () => {
    try { localStorage.setItem(SOUND_KEY, box.checked ? 'on' : 'off'); } catch { /* kept for this page only */ }
    if (box.checked) beep(); // the click lets the browser start audio, and lets him hear it
  });
  const el = h('label', { class: 'sound-toggle', for: 'sound-toggle' }, box, ` ${t('notify.sound')}`);
  let ply = null;
  let beeps = 0;

  function update(st) {
    el.hidden = st.you === null; // a spectator has no opponent to hear
    document.title = yourTurn(st) ? t('notify.title', { title: BASE_TITLE }) : BASE_TITLE;
    const last = st.moves.at(-1);
    const theirs = last && last.seat !== null && last.seat !== st.you && st.you !== null;
    if (ply !== null && st.ply > ply && theirs && box.checked) {
      beeps++;
      document.body.dataset.beeps = String(beeps);
      beep();
    }
    ply = st.ply;
  }

  return { el, update };
}
