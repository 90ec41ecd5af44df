#!/usr/bin/python3
"""Trains a crown evaluation network on the CPU with Debian's python3-torch, then
quantises it into crown's .nnue format (nnue_quant.py) and records how it was made
beside it. docs/TRAINING.md has the whole recipe; in short:

  crown tune GAME --generate N --per-game 0 --score-nodes M --out data.txt
  crown nnue GAME --features data.txt --out feats.txt
  /usr/bin/python3 tools/nnue/train.py --features feats.txt --game GAME \
      --feature-set SET --out nets/GAME.nnue [--epochs E] [--seed S]

The float model has the shape of the integer one, with the same clamps, and its
weights are kept inside what the integers can hold, so that quantising changes little.
The target is a blend of the search's score and the game's result, both as the player
to move's chance: lambda * sigmoid(score / scale) + (1 - lambda) * result.
"""
import argparse
import hashlib
import os
import sys
import time

import numpy as np
import torch

# No __pycache__ in tools/: every file there is mapped in docs/ARCHITECTURE.md.
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nnue_quant as q  # noqa: E402


class Net(torch.nn.Module):
    def __init__(self, inputs, virtual=0):
        super().__init__()
        self.inputs = inputs
        self.ft = torch.nn.EmbeddingBag(inputs + virtual, q.HIDDEN, mode="sum")
        self.ft_bias = torch.nn.Parameter(torch.zeros(q.HIDDEN))
        self.l1 = torch.nn.Linear(2 * q.HIDDEN, q.L1)
        self.l2 = torch.nn.Linear(q.L1, q.L2)
        self.out = torch.nn.Linear(q.L2, 1)
        with torch.no_grad():
            self.ft.weight.mul_(0.1)

    def forward(self, mover, mover_off, other, other_off):
        a = torch.clamp(self.ft(mover, mover_off) + self.ft_bias, 0, 1)
        b = torch.clamp(self.ft(other, other_off) + self.ft_bias, 0, 1)
        h = torch.clamp(self.l1(torch.cat([a, b], 1)), 0, 1)
        h = torch.clamp(self.l2(h), 0, 1)
        return self.out(h).squeeze(1) * q.OUT_CENTI  # centi-units for the player to move

    def clip(self):
        """Keeps the weights where their integers fit (int8 dense weights, int16 sums)."""
        with torch.no_grad():
            self.ft.weight.clamp_(-2, 2)
            self.l1.weight.clamp_(-127 / q.QB, 127 / q.QB)
            self.l2.weight.clamp_(-127 / q.QB, 127 / q.QB)
            lim = 127 * q.QA / (q.OUT_CENTI * q.OUT_DIV)
            self.out.weight.clamp_(-lim, lim)


def factorised(features, inputs, block, count):
    """The features with their virtual ones: feature f < count also counts as inputs +
    f // block, a weight its whole block shares (a piece's value whatever its square),
    which the few positions of a small data set teach far faster than one weight a
    square. The export folds it into the real weights, so the net's format knows nothing
    of it."""
    if block == 0:
        return features
    return features + [inputs + f // block for f in features if f < count]


def batches(rows, order, size, fac=(0, 0, 0)):
    for start in range(0, len(order), size):
        idx = order[start:start + size]
        mover, other, mo, oo, score, result, has = [], [], [], [], [], [], []
        for i in idx:
            r, s, m, p0, p1 = rows[i]
            mine, theirs = (p0, p1) if m == 0 else (p1, p0)
            mine, theirs = factorised(mine, *fac), factorised(theirs, *fac)
            mo.append(len(mover))
            mover.extend(mine)
            oo.append(len(other))
            other.extend(theirs)
            result.append(r if m == 0 else 1 - r)
            score.append(0 if s is None else (s if m == 0 else -s))
            has.append(s is not None)
        yield (torch.tensor(mover), torch.tensor(mo), torch.tensor(other), torch.tensor(oo),
               torch.tensor(score, dtype=torch.float32), torch.tensor(result, dtype=torch.float32),
               torch.tensor(has))


def quantise(model, block=0, count=0):
    rnd = lambda t, k: np.rint(np.asarray(t, np.float64) * k).astype(np.int64)
    ft = model.ft.weight.detach().numpy().astype(np.float64)
    real = ft[:model.inputs].copy()
    if block:
        real[:count] += np.repeat(ft[model.inputs:model.inputs + count // block], block, axis=0)
    p = lambda t: t.detach().numpy()
    lim8 = lambda a: np.clip(a, -127, 127)
    out_k = q.OUT_CENTI * q.OUT_DIV
    return {
        "ft_bias": rnd(p(model.ft_bias), q.QA),
        "ft_weight": rnd(real, q.QA),
        "b1": rnd(p(model.l1.bias), q.QA * q.QB),
        "w1": lim8(rnd(p(model.l1.weight), q.QB)),
        "b2": rnd(p(model.l2.bias), q.QA * q.QB),
        "w2": lim8(rnd(p(model.l2.weight), q.QB)),
        "b3": int(rnd(p(model.out.bias), out_k)[0]),
        "w3": lim8(rnd(p(model.out.weight[0]), out_k / q.QA)),
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--features", required=True, help="crown nnue --features output")
    ap.add_argument("--game", required=True)
    ap.add_argument("--feature-set", required=True)
    ap.add_argument("--out", required=True, help="the .nnue to write; its .txt goes beside")
    ap.add_argument("--epochs", type=int, default=40)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--lam", type=float, default=0.7, help="weight of the score in the target")
    ap.add_argument("--scale", type=float, default=459.0, help="centi-units of a 73%% chance")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--factorise", default="", metavar="BLOCK:COUNT",
                    help="features below COUNT in blocks of BLOCK share a trained weight "
                         "(King Down: 64:1408, a piece kind whatever its square)")
    ap.add_argument("--data-hash", default="", help="sha256 of the crown tune data, recorded")
    ap.add_argument("--command", default="", help="the command that made the data, recorded")
    a = ap.parse_args()
    if not a.out.endswith(".nnue"):
        ap.error("--out names the net, a .nnue file (its record goes beside it as .txt)")
    side = os.path.splitext(a.out)[0] + ".txt"
    # The record goes beside the net: never over a file that is not an earlier record
    # (the data, say, named like the net).
    if os.path.exists(side) and "how this network was made" not in open(side).readline():
        ap.error(f"{side}, where the net's record goes, holds something else")

    torch.manual_seed(a.seed)
    torch.set_num_threads(1)
    rng = np.random.default_rng(a.seed)
    rows = q.read_features(a.features)
    header = open(a.features).readline()
    inputs = int(header.split("inputs ")[1])
    order = rng.permutation(len(rows))
    n_valid = max(1, len(rows) // 10)
    valid, train = order[:n_valid], order[n_valid:]
    block, count = (int(v) for v in a.factorise.split(":")) if a.factorise else (0, 0)
    fac = (inputs, block, count)
    model = Net(inputs, count // block if block else 0)
    opt = torch.optim.Adam(model.parameters(), lr=a.lr)
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=max(1, a.epochs // 3), gamma=0.3)

    def loss_of(batch):
        mover, mo, other, oo, score, result, has = batch
        pred = torch.sigmoid(model(mover, mo, other, oo) / a.scale)
        target = torch.where(has, a.lam * torch.sigmoid(score / a.scale) + (1 - a.lam) * result,
                             result)
        return ((pred - target) ** 2).mean()

    t0 = time.time()
    for epoch in range(a.epochs):
        model.train()
        total, n = 0.0, 0
        for batch in batches(rows, rng.permutation(train), a.batch, fac):
            opt.zero_grad()
            loss = loss_of(batch)
            loss.backward()
            opt.step()
            model.clip()
            total += float(loss) * len(batch[1])
            n += len(batch[1])
        sched.step()
        model.eval()
        with torch.no_grad():
            vl = sum(float(loss_of(b)) * len(b[1])
                     for b in batches(rows, valid, 4096, fac)) / len(valid)
        print(f"epoch {epoch + 1}/{a.epochs}: train {total / n:.5f}, validation {vl:.5f}", flush=True)

    net = quantise(model, block, count)
    data = q.pack(a.game, a.feature_set, net)
    with open(a.out, "wb") as f:
        f.write(data)
    # How far quantising moved the values, on the validation positions.
    with torch.no_grad():
        b = next(batches(rows, valid[:500], 500, fac))
        fl = model(b[0], b[1], b[2], b[3]).numpy()
    back = q.unpack(data)
    errs = np.abs(np.array([q.evaluate_row(back, rows[i]) for i in valid[:500]]) - fl)
    with open(side, "w") as f:
        f.write(f"# {os.path.basename(a.out)}: how this network was made (docs/TRAINING.md)\n")
        f.write(f"game {a.game}\nfeature-set {a.feature_set}\n")
        f.write(f"data-command {a.command}\ndata-sha256 {a.data_hash}\n")
        f.write(f"positions {len(rows)} (validation {len(valid)})\n")
        f.write("train-command /usr/bin/python3 tools/nnue/train.py --features FEATURES "
                f"--game {a.game} --feature-set {a.feature_set} --out {a.out} "
                f"--epochs {a.epochs} --batch {a.batch} --lr {a.lr} --lam {a.lam} "
                f"--scale {a.scale} --seed {a.seed}"
                + (f" --factorise {a.factorise}" if a.factorise else "") + "\n")
        f.write(f"validation-loss {vl:.5f}\n")
        f.write(f"quantisation-error-centi mean {errs.mean():.2f} max {errs.max():.2f}\n")
        f.write(f"net-sha256 {hashlib.sha256(data).hexdigest()}\n")
        f.write(f"torch {torch.__version__}, {time.time() - t0:.0f} s of training\n")
    print(f"wrote {a.out} ({len(data)} bytes) and {side}; quantisation error mean "
          f"{errs.mean():.2f} centi-units")


if __name__ == "__main__":
    main()
