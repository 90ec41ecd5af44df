// glicko2.mjs - Glicko-2 for the tests, written from Glickman's "Example of the Glicko-2
// system" apart from the server's src/play/glicko2.c, so that a rating the server gives
// is checked against numbers computed independently: one rating period, and one game as
// one period for both players (what the server does after every rated game).
const SCALE = 173.7178;
const TAU = 0.5;

// The player {r, rd, vol} after one rating period with games [{r, rd, s}].
export function glicko2(p, games) {
  const mu = (p.r - 1500) / SCALE;
  const phi = p.rd / SCALE;
  const g = (ph) => 1 / Math.sqrt(1 + (3 * ph * ph) / (Math.PI * Math.PI));
  let vInv = 0;
  let sum = 0;
  for (const o of games) {
    const muJ = (o.r - 1500) / SCALE;
    const phiJ = o.rd / SCALE;
    const e = 1 / (1 + Math.exp(-g(phiJ) * (mu - muJ)));
    vInv += g(phiJ) ** 2 * e * (1 - e);
    sum += g(phiJ) * (o.s - e);
  }
  const v = 1 / vInv;
  const delta = v * sum;
  const a = Math.log(p.vol * p.vol);
  const f = (x) => (Math.exp(x) * (delta ** 2 - phi ** 2 - v - Math.exp(x))) / (2 * (phi ** 2 + v + Math.exp(x)) ** 2) - (x - a) / TAU ** 2;
  let A = a;
  let B;
  if (delta ** 2 > phi ** 2 + v) B = Math.log(delta ** 2 - phi ** 2 - v);
  else { let k = 1; while (f(a - k * TAU) < 0) k++; B = a - k * TAU; }
  let fA = f(A);
  let fB = f(B);
  while (Math.abs(B - A) > 1e-6) {
    const C = A + ((A - B) * fA) / (fB - fA);
    const fC = f(C);
    if (fC * fB <= 0) { A = B; fA = fB; } else fA /= 2;
    B = C;
    fB = fC;
  }
  const vol = Math.exp(A / 2);
  const phiStar = Math.sqrt(phi ** 2 + vol ** 2);
  const phiNew = 1 / Math.sqrt(1 / phiStar ** 2 + 1 / v);
  return { r: SCALE * (mu + phiNew ** 2 * sum) + 1500, rd: SCALE * phiNew, vol };
}

// One game as one rating period for both: a scored `s` against b.
export function rateGame(a, b, s) {
  return [glicko2(a, [{ r: b.r, rd: b.rd, s }]), glicko2(b, [{ r: a.r, rd: a.rd, s: 1 - s }])];
}

export const FRESH = { r: 1500, rd: 350, vol: 0.06 };
