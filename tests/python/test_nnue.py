"""The evaluation network's two implementations agree bit for bit: the trainer's
quantised forward pass in numpy (tools/nnue/nnue_quant.py) and crown's C inference
(`crown nnue --eval`, either kernel), on the positions of a few self-play games, for the
net built into crown and for a net of random weights written by the exporter's packer.
numpy only: the test needs no torch.
"""
import os
import subprocess
import sys
import tempfile

import numpy as np
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
CROWN_BIN = os.environ.get("CROWN_BIN", "crown")
# No __pycache__ in tools/: every file there is mapped in docs/ARCHITECTURE.md.
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(ROOT, "tools", "nnue"))
import nnue_quant as q  # noqa: E402


def crown(*args):
    out = subprocess.run([CROWN_BIN, *args], capture_output=True, text=True, check=True)
    return out.stdout


def random_net(inputs, seed):
    rng = np.random.default_rng(seed)
    return {
        "ft_bias": rng.integers(-40, 60, q.HIDDEN),
        "ft_weight": rng.integers(-60, 60, (inputs, q.HIDDEN)),
        "b1": rng.integers(-3000, 3000, q.L1),
        "w1": rng.integers(-127, 128, (q.L1, 2 * q.HIDDEN)),
        "b2": rng.integers(-3000, 3000, q.L2),
        "w2": rng.integers(-127, 128, (q.L2, q.L1)),
        "b3": int(rng.integers(-5000, 5000)),
        "w3": rng.integers(-127, 128, q.L2),
    }


@pytest.fixture(scope="module")
def positions():
    with tempfile.TemporaryDirectory() as tmp:
        data = os.path.join(tmp, "kd.txt")
        feats = os.path.join(tmp, "feats.txt")
        crown("tune", "king-down", "--generate", "3", "--depth", "1", "--per-game", "0",
              "--seed", "5", "--out", data)
        crown("nnue", "king-down", "--features", data, "--out", feats)
        rows = q.read_features(feats)
        set_line = open(feats).readline()
        yield tmp, data, rows, set_line


def c_values(data, net, kernel):
    args = ["nnue", "king-down", "--eval", data] + (["--net", net] if net else [])
    args += ["--kernel", kernel] if kernel else []
    lines = [l for l in crown(*args).splitlines() if not l.startswith("#")]
    return [int(l.split("\t")[0]) for l in lines]


def test_pack_round_trip():
    net = random_net(40, 1)
    back = q.unpack(q.pack("king-down", "kd-test", net))
    assert back["game"] == "king-down" and back["feature_set"] == "kd-test"
    for k in ("ft_bias", "ft_weight", "b1", "w1", "b2", "w2", "w3"):
        assert np.array_equal(back[k], net[k])
    assert back["b3"] == net["b3"]


def test_random_net_bit_exact(positions):
    tmp, data, rows, set_line = positions
    inputs = int(set_line.split("inputs ")[1])
    fset = set_line.split("set ")[1].split("\t")[0]
    path = os.path.join(tmp, "random.nnue")
    with open(path, "wb") as f:
        f.write(q.pack("king-down", fset, random_net(inputs, 2)))
    net = q.unpack(open(path, "rb").read())
    want = [q.evaluate_row(net, r) for r in rows]
    assert len(rows) > 50
    for kernel in ("portable", None):
        assert c_values(data, path, kernel) == want


def test_builtin_net_bit_exact(positions):
    tmp, data, rows, _ = positions
    net = q.unpack(open(os.path.join(ROOT, "nets", "king-down.nnue"), "rb").read())
    assert c_values(data, None, None) == [q.evaluate_row(net, r) for r in rows]


def test_bad_net_refused(positions):
    tmp, data, _, _ = positions
    path = os.path.join(tmp, "bad.nnue")
    with open(path, "wb") as f:
        f.write(b"CRNN" + b"\0" * 10)
    out = subprocess.run([CROWN_BIN, "nnue", "king-down", "--eval", data, "--net", path],
                         capture_output=True, text=True)
    assert out.returncode != 0 and "cut short" in out.stderr


# --- every built-in net, whatever its game ------------------------------------------------

BUILTIN = sorted(f[:-len(".nnue")] for f in os.listdir(os.path.join(ROOT, "nets"))
                 if f.endswith(".nnue"))


@pytest.mark.parametrize("game", BUILTIN)
def test_every_builtin_net_bit_exact(game):
    """The net built into crown for each game against numpy's pass on the positions of
    two short self-play games of that game, with the portable kernel and the one crown
    picks (AVX2 where the processor has it)."""
    net = q.unpack(open(os.path.join(ROOT, "nets", game + ".nnue"), "rb").read())
    assert net["game"] == game
    with tempfile.TemporaryDirectory() as tmp:
        data, feats = os.path.join(tmp, "data.txt"), os.path.join(tmp, "feats.txt")
        # --score-nodes: a game without Texel weights writes positions only with scores.
        crown("tune", game, "--generate", "2", "--depth", "1", "--per-game", "0",
              "--score-nodes", "100", "--seed", "7", "--out", data)
        crown("nnue", game, "--features", data, "--out", feats)
        rows = q.read_features(feats)
        assert len(rows) > 10
        want = [q.evaluate_row(net, r) for r in rows]
        for kernel in ("portable", None):
            args = ["nnue", game, "--eval", data] + (["--kernel", kernel] if kernel else [])
            got = [int(l.split("\t")[0]) for l in crown(*args).splitlines()
                   if not l.startswith("#")]
            assert got == want
