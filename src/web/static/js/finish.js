// finish.js - the end of a game on its page: the result said to the player in words
// ("You won: your king reached the Valley", from the end's stable reason), King of the
// Valley's score breakdown, and the buttons to resign, offer, accept or decline a draw
// and ask for a rematch (docs/API.md, "Finishing a game"). game.js calls update(state)
// with every state; everything here follows from the state the server sends. What
// became of this player's draw offer is said on a line of its own, which the game's end
// clears: an offer the opponent declines vanishes from the state without a move, and
// the one who offered is told so.
import * as api from './api.js';
import { h, seatWords } from './dom.js';
import { hasMessage, t } from './i18n.js';
import { serverWords } from './serverwords.js';
import { seatName } from './words.js';

// For each end a game gives as its reason, the words for the winner and for the loser
// are the messages reason.win.REASON and reason.lose.REASON, and a draw's
// reason.draw.REASON; a spectator, and a player whose reason has none of those, reads
// the neutral ended.REASON ("a king reached the Valley"), else a draw's words, else the
// server's own (result.why, through serverwords.js). A loss on time is said in one
// phrase, as players say it.
const reasonWords = (kind, reason) => (hasMessage(`reason.${kind}.${reason}`) ? t(`reason.${kind}.${reason}`) : null);

function neutralWhy(st) {
  const r = st.result;
  if (r.reason && hasMessage(`ended.${r.reason}`)) return t(`ended.${r.reason}`, { seat: seatName(st.game, r.seat) });
  return reasonWords('draw', r.reason) ?? serverWords(r.why || '');
}

const capital = (s) => s.charAt(0).toUpperCase() + s.slice(1);

// The result as this page's viewer reads it.
export function resultText(st) {
  const r = st.result;
  if (!r) return '';
  const winners = r.winners || [];
  if (!winners.length) return capital(serverWords(r.text));
  const why = neutralWhy(st);
  if (st.you === null || st.you === undefined) {
    if (winners.length === st.players) return why ? t('result.draw-why', { why }) : t('result.draw');
    const seat = seatName(st.game, winners[0]);
    if (winners.length > 1) return why ? t('result.shared-win-why', { why }) : t('result.shared-win');
    return capital(why ? t('result.seat-wins-why', { seat, why }) : t('result.seat-wins', { seat }));
  }
  if (winners.length === st.players) {
    const said = reasonWords('draw', r.reason) ?? why;
    return said ? t('result.draw-why', { why: said }) : t('result.draw');
  }
  const won = winners.includes(st.you);
  if (r.reason === 'time' && st.players === 2 && winners.length === 1) return t(won ? 'result.won-time' : 'result.lost-time');
  if (won) {
    const said = (winners.length === 1 && reasonWords('win', r.reason)) || why;
    if (winners.length === 1) return said ? t('result.won-why', { why: said }) : t('result.won');
    return said ? t('result.shared-why', { why: said }) : t('result.shared');
  }
  const said = (st.players === 2 && reasonWords('lose', r.reason)) || why;
  return said ? t('result.lost-why', { why: said }) : t('result.lost');
}

// King of the Valley's reputation, part by part, from the observation's counters.
function breakdown(st) {
  const c = st.observation && st.observation.counters;
  if (!c || !Array.isArray(c.reputation)) return null;
  const rows = [
    [t('score.influence'), (p) => c.influence[p]],
    [t('score.kingdom'), (p) => 5 * (c.kingdom ? c.kingdom[p] : 0)],
    [t('score.orders'), (p) => c.orders[p]],
    [t('score.couples'), (p) => c.couples[p]],
    [t('score.gold'), (p) => c.gold[p]],
    [t('score.reputation'), (p) => c.reputation[p]],
  ];
  const seats = st.seats.map((s) => s.seat);
  return h('table', { class: 'score-breakdown', id: 'score-breakdown' },
    h('caption', {}, t('score.scores')),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, t('score.part')),
      ...seats.map((p) => h('th', { scope: 'col' }, p === st.you ? t('score.you') : capital(seatWords(p, true)))))),
    h('tbody', {}, ...rows.map(([name, f], i) => h('tr', { class: i === rows.length - 1 ? 'total' : null },
      h('th', { scope: 'row' }, name), ...seats.map((p) => h('td', {}, String(f(p))))))));
}

// The finishing controls of a game page: returns { element, update(state) }. apply(state)
// shows a state the server answered; say(text) shows a message.
export function finishControls(id, token, apply, say) {
  let st = null;
  let busy = false;
  const resign = h('button', { type: 'button', id: 'resign' }, t('finish.resign'));
  const confirm = h('span', { class: 'confirm', hidden: true }, `${t('finish.resign-ask')} `,
    h('button', { type: 'button', id: 'resign-yes' }, t('finish.resign-yes')), ' ',
    h('button', { type: 'button', id: 'resign-no' }, t('finish.resign-no')));
  const offer = h('button', { type: 'button', id: 'offer-draw' }, t('finish.offer'));
  const incoming = h('p', { id: 'draw-offer', class: 'draw-offer', hidden: true }, h('span'), ' ',
    h('button', { type: 'button', id: 'accept-draw' }, t('finish.accept')), ' ',
    h('button', { type: 'button', id: 'decline-draw' }, t('finish.decline')));
  const rematch = h('button', { type: 'button', id: 'rematch' }, t('finish.rematch'));
  const goRematch = h('a', { id: 'rematch-link', class: 'button-link', hidden: true }, t('finish.go-rematch'));
  const scores = h('div', { class: 'scores' });
  const note = h('p', { id: 'draw-note', class: 'draw-note', role: 'status', hidden: true });
  const element = h('div', { class: 'finish', id: 'finish' }, scores, incoming, note,
    h('div', { class: 'buttons' }, resign, offer, rematch, goRematch), confirm);

  // `offered` marks the note of this player's standing offer, kept until it is answered.
  const tell = (text, offered = false) => {
    note.textContent = text || '';
    note.hidden = !text;
    note.dataset.offered = offered ? 'true' : '';
  };

  async function act(action) {
    if (busy) return;
    busy = true;
    say('');
    try {
      const r = await api.finish(id, token, action);
      if (r.answer === 'declined') tell(t('finish.ai-declines'));
      else if (r.answer === 'offered') tell(t('finish.offered-note'), true);
      apply(r);
    } catch (e) {
      say(e.message);
    } finally {
      busy = false;
    }
  }

  resign.addEventListener('click', () => { confirm.hidden = false; resign.hidden = true; });
  confirm.querySelector('#resign-no').addEventListener('click', () => { confirm.hidden = true; update(st); });
  confirm.querySelector('#resign-yes').addEventListener('click', () => { confirm.hidden = true; act('resign'); });
  offer.addEventListener('click', () => act('offer-draw'));
  incoming.querySelector('#accept-draw').addEventListener('click', () => act('accept-draw'));
  incoming.querySelector('#decline-draw').addEventListener('click', () => act('decline-draw'));
  rematch.addEventListener('click', async () => {
    if (busy) return;
    busy = true;
    try {
      const r = await api.finish(id, token, 'rematch');
      location.assign(r.url);
    } catch (e) {
      say(e.message);
    } finally {
      busy = false;
    }
  });

  function update(state) {
    const before = st;
    st = state;
    const me = st.you !== null && st.you !== undefined && st.seats[st.you] && !st.seats[st.you].ai;
    const over = st.status === 'over';
    const other = st.players === 2 && me ? 1 - st.you : null;
    if (over) tell('');
    else if (me && before && before.draw_offer === st.you && st.draw_offer !== st.you) {
      // The offer left the state: declined, or it lapsed as the opponent moved on.
      tell(t(st.ply === before.ply ? 'finish.declined' : 'finish.lapsed'));
    } else if (me && before && st.ply !== before.ply && !note.dataset.offered) tell('');
    else if (me && st.draw_declined === st.you && !note.textContent) tell(t('finish.declined')); // a reload
    resign.hidden = !me || over || !confirm.hidden;
    offer.hidden = !me || over || st.players !== 2 || st.draw_offer === other;
    offer.disabled = st.draw_offer === st.you;
    offer.textContent = t(st.draw_offer === st.you ? 'finish.offered' : 'finish.offer');
    incoming.hidden = !me || over || other === null || st.draw_offer !== other;
    incoming.firstElementChild.textContent = t('finish.incoming', { seat: seatWords(other ?? 0) });
    if (over) confirm.hidden = true;
    rematch.hidden = !me || !over || !!st.rematch_url;
    goRematch.hidden = !st.rematch_url;
    if (st.rematch_url) goRematch.href = st.rematch_url;
    const table = over ? breakdown(st) : null;
    scores.replaceChildren(...(table ? [table] : []));
  }

  return { element, update };
}
