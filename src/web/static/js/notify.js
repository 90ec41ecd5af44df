// notify.js - telling a player it is his turn while he looks elsewhere: the page title
// ("● Your turn - crown"), if he turned it on a short tone when the opponent moves, made
// with the Web Audio API (no sound files), and if he turned that on, a browser
// notification (the Notification API) when his turn comes while the tab is hidden. Both
// choices are kept in localStorage; the notification's also needs the browser's leave.
import { h } from './dom.js';
import { t } from './i18n.js';
import { gameName } from './words.js';

const SOUND_KEY = 'crown.sound';
const ALERT_KEY = 'crown.notify';
export const BASE_TITLE = 'crown';

function chosen(key) {
  try { return localStorage.getItem(key) === 'on'; } catch { return false; }
}

function choose(key, on) {
  try { localStorage.setItem(key, on ? 'on' : 'off'); } catch { /* kept for this page only */ }
}

// The tab title of a page listing `count` games that wait for this player (0: the plain one).
export function waitingTitle(count) {
  return count > 0 ? t('notify.waiting', { count, title: BASE_TITLE }) : BASE_TITLE;
}

// The switch for browser notifications: off where the browser has none; asking the
// browser's leave when turned on, and staying off (saying why) when it is refused.
function createAlertSwitch() {
  const box = h('input', { type: 'checkbox', id: 'notify-toggle' });
  const why = h('span', { class: 'notify-why', role: 'status' });
  const el = h('label', { class: 'sound-toggle notify-toggle', for: 'notify-toggle' }, box, ` ${t('notify.alert')}`, why);
  const api = window.Notification;
  el.hidden = !api;
  box.checked = Boolean(api) && chosen(ALERT_KEY) && api.permission === 'granted';
  box.addEventListener('change', async () => {
    why.textContent = '';
    if (box.checked && api.permission !== 'granted') {
      let answer = 'denied';
      try { answer = await api.requestPermission(); } catch { /* an old browser: refused */ }
      if (answer !== 'granted') {
        box.checked = false;
        why.textContent = ` ${t('notify.blocked')}`;
      }
    }
    choose(ALERT_KEY, box.checked);
  });
  return { el, on: () => box.checked && api && api.permission === 'granted' };
}

// Tells of the turn in game `st` by a notification, only while the tab is hidden (one
// who looks at the page sees the turn there); one per game, the newest replacing.
function alertTurn(st) {
  if (document.visibilityState !== 'hidden') return false;
  try {
    const n = new window.Notification(t('notify.alert-title'), { body: gameName(st.game), tag: `crown-${st.id}` });
    n.onclick = () => { window.focus(); n.close(); };
    return true;
  } catch {
    return false; // a browser that allows notifications only from a service worker
  }
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
  box.checked = chosen(SOUND_KEY);
  box.addEventListener('change', () => {
    choose(SOUND_KEY, box.checked);
    if (box.checked) beep(); // the click lets the browser start audio, and lets him hear it
  });
  const sound = h('label', { class: 'sound-toggle', for: 'sound-toggle' }, box, ` ${t('notify.sound')}`);
  const alerts = createAlertSwitch();
  const el = h('div', { class: 'notify' }, sound, alerts.el);
  let ply = null;
  let mine = null;
  let beeps = 0;
  let shown = 0;

  function update(st) {
    el.hidden = st.you === null; // a spectator has no opponent to hear
    const now = yourTurn(st);
    document.title = now ? t('notify.title', { title: BASE_TITLE }) : BASE_TITLE;
    const last = st.moves.at(-1);
    const theirs = last && last.seat !== null && last.seat !== st.you && st.you !== null;
    if (ply !== null && st.ply > ply && theirs && box.checked) {
      beeps++;
      document.body.dataset.beeps = String(beeps);
      beep();
    }
    // The turn that came since the last state, not the one the page opened on.
    if (mine === false && now && alerts.on() && alertTurn(st)) {
      shown++;
      document.body.dataset.notified = String(shown);
    }
    ply = st.ply;
    mine = now;
  }

  return { el, update };
}
