// turns.js - a game's actions grouped as players think of them: the actions one seat
// plays in a row are one turn (a King's Guard stack carried off piece by piece, a King
// of the Valley turn), chance's draws are turns of their own, and turns are numbered
// by rounds: the number goes up when the order of seats starts again, so a two-player
// game reads "1. c1-c4 c5-c2" as chess does, and any number of seats works alike.

// moves: the state's moves ({seat, text, read}). Returns rounds: [{number, turns: [{seat,
// first, last, texts}]}], first and last being indices into moves; texts as players read
// them (King Down's SAN).
export function roundsOf(moves) {
  const rounds = [];
  let prevSeat = null;
  for (let i = 0; i < moves.length; i++) {
    const m = moves[i];
    const round = rounds.at(-1);
    const turn = round && round.turns.at(-1);
    if (turn && m.seat !== null && turn.seat === m.seat && turn.last === i - 1) {
      turn.last = i;
      turn.texts.push(m.read ?? m.text ?? '(hidden)');
      continue;
    }
    const t = { seat: m.seat, first: i, last: i, texts: [m.read ?? m.text ?? '(hidden)'] };
    if (!round || (m.seat !== null && prevSeat !== null && m.seat <= prevSeat)) {
      rounds.push({ number: rounds.length + 1, turns: [t] });
    } else {
      round.turns.push(t);
    }
    if (m.seat !== null) prevSeat = m.seat;
  }
  return rounds;
}

// The number of the round in which moves[k] was played ("Move 12").
export function roundNumberOf(rounds, k) {
  const r = rounds.find((round) => round.turns.some((t) => k >= t.first && k <= t.last));
  return r ? r.number : k + 1;
}
