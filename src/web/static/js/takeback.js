// takeback.js - a takeback between people on a game page, as on lichess: a button to ask
// the opponent to take one's last turn back, their answer (accept or decline) where the
// request shows, and the asker told what became of it (docs/API.md, "Takebacks").
// Against the AI the page's Undo does it at once; these controls stay hidden there.
// game.js calls update(state) with every state; all of it follows from `takeback`.
import * as api from './api.js';
import { h, seatWords } from './dom.js';
import { t } from './i18n.js';

export function takebackControls(id, token, apply, say) {
  let busy = false;
  const ask = h('button', { type: 'button', id: 'takeback' }, t('takeback.ask'));
  const note = h('p', { id: 'takeback-note', class: 'takeback-note', role: 'status', hidden: true });
  const incoming = h('p', { id: 'takeback-request', class: 'draw-offer', hidden: true }, h('span'), ' ',
    h('button', { type: 'button', id: 'accept-takeback' }, t('takeback.accept')), ' ',
    h('button', { type: 'button', id: 'decline-takeback' }, t('finish.decline')));
  const element = h('div', { class: 'takeback' }, incoming, note);

  async function act(action) {
    if (busy) return;
    busy = true;
    say('');
    try {
      apply(await api.finish(id, token, action));
    } catch (e) {
      say(e.message);
    } finally {
      busy = false;
    }
  }
  ask.addEventListener('click', () => act('takeback'));
  incoming.querySelector('#accept-takeback').addEventListener('click', () => act('accept-takeback'));
  incoming.querySelector('#decline-takeback').addEventListener('click', () => act('decline-takeback'));

  function update(st) {
    const me = st.you !== null && st.you !== undefined && st.seats[st.you] && !st.seats[st.you].ai;
    const other = me && st.players === 2 ? 1 - st.you : null;
    const people = other !== null && st.seats[other] && !st.seats[other].ai;
    const live = people && st.status !== 'over';
    const tb = live ? st.takeback : null;
    const mine = tb && tb.seat === st.you;
    ask.hidden = !live;
    ask.disabled = !st.moves.some((m) => m.seat === st.you) || (mine && !tb.declined);
    incoming.hidden = !tb || tb.seat !== other || tb.declined;
    incoming.firstElementChild.textContent = t('takeback.incoming', { seat: seatWords(other ?? 0) });
    note.hidden = !mine;
    note.textContent = !mine ? '' : t(tb.declined ? 'takeback.declined' : 'takeback.asked');
  }

  return { button: ask, element, update };
}
