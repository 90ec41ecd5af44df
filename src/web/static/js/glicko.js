// glicko.js - a player's puzzle rating kept in this browser, by Glicko-2 (Glickman's
// system: a rating, its deviation and a volatility), with each puzzle an opponent of
// known rating: solving it is a win, a hint makes it half, a wrong move or the shown
// solution a loss. docs/PUZZLES.md gives the constants; the server's own ratings of
// players are another module's (C, on the server).
const SCALE = 173.7178; // Glicko-2's rating units per Glicko unit
const TAU = 0.5; // how fast the volatility may change
const PUZZLE_RD = 60; // a puzzle's rating is taken as nearly sure

export const FRESH = { r: 1500, rd: 350, vol: 0.06 };

// The player's rating after one result (score 1, 0.5 or 0) against a puzzle rated `opp`.
export function rate(player, opp, score) {
  const mu = (player.r - 1500) / SCALE;
  const phi = player.rd / SCALE;
  const muJ = (opp - 1500) / SCALE;
  const phiJ = PUZZLE_RD / SCALE;
  const g = 1 / Math.sqrt(1 + (3 * phiJ * phiJ) / (Math.PI * Math.PI));
  const e = 1 / (1 + Math.exp(-g * (mu - muJ)));
  const v = 1 / (g * g * e * (1 - e));
  const delta = v * g * (score - e);
  // The new volatility by the Illinois method, as the system's paper gives it.
  const a = Math.log(player.vol * player.vol);
  const f = (x) => (Math.exp(x) * (delta * delta - phi * phi - v - Math.exp(x))) / (2 * (phi * phi + v + Math.exp(x)) ** 2) - (x - a) / (TAU * TAU);
  let A = a;
  let B;
  if (delta * delta > phi * phi + v) B = Math.log(delta * delta - phi * phi - v);
  else { let k = 1; while (f(a - k * TAU) < 0) k++; B = a - k * TAU; }
  let fA = f(A);
  let fB = f(B);
  for (let i = 0; i < 100 && Math.abs(B - A) > 1e-6; i++) {
    const C = A + ((A - B) * fA) / (fB - fA);
    const fC = f(C);
    if (fC * fB <= 0) { A = B; fA = fB; } else fA /= 2;
    B = C;
    fB = fC;
  }
  const vol = Math.exp(A / 2);
  const phiStar = Math.sqrt(phi * phi + vol * vol);
  const phiNew = 1 / Math.sqrt(1 / (phiStar * phiStar) + 1 / v);
  const muNew = mu + phiNew * phiNew * g * (score - e);
  return { r: 1500 + SCALE * muNew, rd: Math.max(30, SCALE * phiNew), vol };
}
