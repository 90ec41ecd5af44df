// import.js - the page at /import: a crown game record (core/record.h's text, as the
// review's "Download the record" or `crown play`'s save writes it), pasted or read from
// a file, becomes a game on the server to review. The server stays the referee: the
// page makes a game of the record's game, rules and start position with every seat a
// human, plays the record's actions one by one with the tokens of the seats to move
// (so an illegal record stops with the server's reason and the action's line), then
// opens the review. Chance's draws cannot be replayed: the server draws them itself.
import * as api from './api.js';
import { h } from './dom.js';

// The record's fields, or an Error saying which line is wrong.
export function parseRecord(text) {
  const rec = { game: null, rules: {}, players: null, start: null, moves: [] };
  const lines = text.split(/\r?\n/);
  if (!/^crown-record 1\s*$/.test(lines[0] || '')) throw new Error('this is not a crown game record: its first line must be "crown-record 1"');
  lines.forEach((raw, i) => {
    const line = raw.trim();
    if (i === 0 || line === '' || line.startsWith('#')) return;
    const sp = line.indexOf(' ');
    const key = sp < 0 ? line : line.slice(0, sp);
    const value = sp < 0 ? '' : line.slice(sp + 1).trim();
    if (key === 'game') rec.game = value;
    else if (key === 'rule') {
      const eq = value.indexOf('=');
      if (eq < 1) throw new Error(`line ${i + 1}: a rule line reads "rule NAME=VALUE"`);
      rec.rules[value.slice(0, eq)] = value.slice(eq + 1);
    } else if (key === 'players') rec.players = value.split(',').length;
    else if (key === 'start') rec.start = value;
    else if (key === 'move') rec.moves.push({ text: value, line: i + 1 });
    else if (key !== 'result') throw new Error(`line ${i + 1}: "${key}" is not a line of a crown record`);
  });
  if (!rec.game) throw new Error('the record names no game (a line "game NAME")');
  return rec;
}

async function replay(rec) {
  const games = (await api.listGames()).games;
  const g = games.find((x) => x.name === rec.game);
  if (!g) throw new Error(`this server has no game called "${rec.game}"`);
  const n = rec.players || g.min_players;
  const spec = { game: rec.game, seats: Array(n).fill('human'), rules: rec.rules };
  if (rec.start) spec.position = rec.start;
  const made = await api.createGame(spec);
  const tokens = made.seats.map((s) => s.token);
  localStorage.setItem(`crown.links.${made.id}`, JSON.stringify(made.seats.map((s) => s.url)));
  let state = made.state;
  for (const m of rec.moves) {
    if (state.to_move === null) {
      throw new Error(state.status === 'over' ? `line ${m.line}: the game is already over`
        : `line ${m.line}: chance acts here (a draw or a shuffle), which the server makes itself: records with chance cannot be replayed`);
    }
    for (;;) {
      try {
        state = await api.playMove(made.id, tokens[state.to_move], m.text, state.ply);
        break;
      } catch (e) {
        if (e.status !== 429) throw new Error(`line ${m.line} ("${m.text}"): ${e.message}`);
        await new Promise((r) => setTimeout(r, 1000));
      }
    }
  }
  return made;
}

export function showImport(root) {
  const text = h('textarea', { id: 'import-text', rows: 12, spellcheck: false, 'aria-describedby': 'import-help' });
  const file = h('input', { id: 'import-file', type: 'file', accept: '.txt,.crown,text/plain' });
  const go = h('button', { id: 'import-go', type: 'submit' }, 'Review this game');
  const message = h('p', { id: 'import-message', class: 'message', role: 'alert' });
  const form = h('form', { id: 'import', class: 'new-game import' },
    h('label', { for: 'import-text' }, 'Paste a game record'), text,
    h('p', { id: 'import-help', class: 'help' }, 'A crown record: "crown-record 1", the game, its rules, its start and one "move" line per action, as a game\'s review downloads it and crown play saves it.'),
    h('label', { for: 'import-file' }, 'or open a record file '), file,
    h('p', {}, go), message);
  root.replaceChildren(h('section', { class: 'intro' }, h('h1', {}, 'Review a game record')), form);

  file.addEventListener('change', async () => {
    if (file.files.length) text.value = await file.files[0].text();
  });
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    message.textContent = '';
    go.disabled = true;
    try {
      const made = await replay(parseRecord(text.value));
      location.assign(`${made.seats[0].url}&review`);
    } catch (err) {
      message.textContent = err.message;
      go.disabled = false;
    }
  });
}
