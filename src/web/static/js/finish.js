// finish.js - the end of a game on its page: the result said to the player in words
// ("You won: your king reached the Valley", from the end's stable reason), King of the
// Valley's score breakdown, and the buttons to resign, offer, accept or decline a draw
// and ask for a rematch (docs/API.md, "Finishing a game"). game.js calls update(state)
// with every state; everything here follows from the state the server sends. What
// became of this player's draw offer is said on a line of its own, which the game's end
// clears: an offer the opponent declines vanishes from the state without a move, and
// the one who offered is told so.
import * as api from './api.js';
import { h, ORDINAL } from './dom.js';

// For each end a game gives as its reason: the words for the winner and for the loser.
// A reason not here (a draw, a score) is said with the server's own words (result.why).
const REASON = {
  valley: ['your king reached the Valley', 'their king reached the Valley'],
  locked: ['their king is locked in and cannot move', 'your king is locked in and cannot move'],
  'no-move': ['they had no legal move left', 'you had no legal move left'],
  capture: ['their king is buried', 'your king is buried'],
  checkmate: ['checkmate', 'you are checkmated'],
  'literal-mate': ['their king is in check and cannot escape', 'your king is in check and cannot escape'],
  throne: ['your king took the Throne', 'their king took the Throne'],
  resign: ['your opponent resigned', 'you resigned'],
};
// Ends said in one phrase, as players say them.
const PHRASE = { time: ['You won on time', 'You lost on time'] };

const capital = (s) => s.charAt(0).toUpperCase() + s.slice(1);

// The result as this page's viewer reads it.
export function resultText(st) {
  const r = st.result;
  if (!r) return '';
  const why = r.why || '';
  const winners = r.winners || [];
  if (st.you === null || st.you === undefined || !winners.length) return capital(r.text);
  if (winners.length === st.players) return why ? `Draw: ${why}` : 'Draw';
  const words = REASON[r.reason];
  const phrase = st.players === 2 && winners.length === 1 ? PHRASE[r.reason] : null;
  if (phrase) return phrase[winners.includes(st.you) ? 0 : 1];
  if (winners.includes(st.you)) {
    const said = words && winners.length === 1 ? words[0] : why;
    return `${winners.length === 1 ? 'You won' : 'You shared the win'}${said ? `: ${said}` : ''}`;
  }
  const said = words && st.players === 2 ? words[1] : why;
  return `You lost${said ? `: ${said}` : ''}`;
}

// King of the Valley's reputation, part by part, from the observation's counters.
function breakdown(st) {
  const c = st.observation && st.observation.counters;
  if (!c || !Array.isArray(c.reputation)) return null;
  const rows = [
    ['Influence of the castle', (p) => c.influence[p]],
    ['Kingdom bonuses (5 each)', (p) => 5 * (c.kingdom ? c.kingdom[p] : 0)],
    ['Knight orders', (p) => c.orders[p]],
    ['Farmer-and-wife couples', (p) => c.couples[p]],
    ['Gold', (p) => c.gold[p]],
    ['Reputation', (p) => c.reputation[p]],
  ];
  const seats = st.seats.map((s) => s.seat);
  return h('table', { class: 'score-breakdown', id: 'score-breakdown' },
    h('caption', {}, 'Scores'),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Part'),
      ...seats.map((p) => h('th', { scope: 'col' }, p === st.you ? 'You' : capital(ORDINAL[p]))))),
    h('tbody', {}, ...rows.map(([name, f], i) => h('tr', { class: i === rows.length - 1 ? 'total' : null },
      h('th', { scope: 'row' }, name), ...seats.map((p) => h('td', {}, String(f(p))))))));
}

// The finishing controls of a game page: returns { element, update(state) }. apply(state)
// shows a state the server answered; say(text) shows a message.
export function finishControls(id, token, apply, say) {
  let st = null;
  let busy = false;
  const resign = h('button', { type: 'button', id: 'resign' }, 'Resign');
  const confirm = h('span', { class: 'confirm', hidden: true }, 'Resign this game? ',
    h('button', { type: 'button', id: 'resign-yes' }, 'Yes, resign'), ' ',
    h('button', { type: 'button', id: 'resign-no' }, 'No'));
  const offer = h('button', { type: 'button', id: 'offer-draw' }, 'Offer a draw');
  const incoming = h('p', { id: 'draw-offer', class: 'draw-offer', hidden: true }, h('span'), ' ',
    h('button', { type: 'button', id: 'accept-draw' }, 'Accept the draw'), ' ',
    h('button', { type: 'button', id: 'decline-draw' }, 'Decline'));
  const rematch = h('button', { type: 'button', id: 'rematch' }, 'Rematch');
  const goRematch = h('a', { id: 'rematch-link', class: 'button-link', hidden: true }, 'Go to the rematch');
  const scores = h('div', { class: 'scores' });
  const note = h('p', { id: 'draw-note', class: 'draw-note', role: 'status', hidden: true });
  const element = h('div', { class: 'finish', id: 'finish' }, scores, incoming, note,
    h('div', { class: 'buttons' }, resign, offer, rematch, goRematch), confirm);

  const tell = (text) => { note.textContent = text || ''; note.hidden = !text; };

  async function act(action) {
    if (busy) return;
    busy = true;
    say('');
    try {
      const r = await api.finish(id, token, action);
      if (r.answer === 'declined') tell('The AI declines the draw: it does not think it is worse.');
      else if (r.answer === 'offered') tell('Draw offered: your opponent may accept it until they move.');
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
      tell(st.ply === before.ply ? 'Your draw offer was declined.' : 'Your draw offer lapsed: your opponent moved instead.');
    } else if (me && before && st.ply !== before.ply && !note.textContent.startsWith('Draw offered')) tell('');
    resign.hidden = !me || over || !confirm.hidden;
    offer.hidden = !me || over || st.players !== 2 || st.draw_offer === other;
    offer.disabled = st.draw_offer === st.you;
    offer.textContent = st.draw_offer === st.you ? 'Draw offered' : 'Offer a draw';
    incoming.hidden = !me || over || other === null || st.draw_offer !== other;
    incoming.firstElementChild.textContent = `The ${ORDINAL[other ?? 0]} player offers a draw.`;
    if (over) confirm.hidden = true;
    rematch.hidden = !me || !over || !!st.rematch_url;
    goRematch.hidden = !st.rematch_url;
    if (st.rematch_url) goRematch.href = st.rematch_url;
    const table = over ? breakdown(st) : null;
    scores.replaceChildren(...(table ? [table] : []));
  }

  return { element, update };
}
