"""The evaluation network as crown computes it, in numpy: the .nnue file read and
written, and the integer forward pass of src/search/nnue.c step for step, so that the
trainer's export can be checked bit for bit against the C inference
(tests/python/test_nnue.py) without torch. docs/TRAINING.md describes the format.
"""
import struct

import numpy as np

VERSION = 1
HIDDEN, L1, L2 = 64, 16, 16
NAME_LEN = 32
# The quantisation: the first layer's activations 0..127 stand for 0..1; dense weights
# are in 1/64; the output in 1/16 centi-units, 400 centi-units per unit of the float net.
QA, QB, OUT_CENTI, OUT_DIV = 127, 64, 400, 16


def fnv1a(data):
    h = 0xCBF29CE484222325
    for b in data:
        h ^= b
        h = (h * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def pack(game, feature_set, net):
    """The file's bytes from integer arrays: ft_bias, ft_weight [inputs, H], b1, w1 [L1, 2H],
    b2, w2 [L2, L1], b3 (one), w3 [L2]."""
    payload = b"".join([
        np.asarray(net["ft_bias"], "<i2").tobytes(),
        np.asarray(net["ft_weight"], "<i2").tobytes(),
        np.asarray(net["b1"], "<i4").tobytes(),
        np.asarray(net["w1"], "i1").tobytes(),
        np.asarray(net["b2"], "<i4").tobytes(),
        np.asarray(net["w2"], "i1").tobytes(),
        np.asarray([net["b3"]], "<i4").tobytes(),
        np.asarray(net["w3"], "i1").tobytes(),
    ])
    inputs = np.asarray(net["ft_weight"]).shape[0]
    head = b"CRNN" + struct.pack("<I", VERSION)
    head += game.encode().ljust(NAME_LEN, b"\0") + feature_set.encode().ljust(NAME_LEN, b"\0")
    head += struct.pack("<IIIIQ", inputs, HIDDEN, L1, L2, fnv1a(payload))
    return head + payload


def unpack(data):
    """The header's fields and the integer arrays of a .nnue file's bytes."""
    if data[:4] != b"CRNN":
        raise ValueError("not a crown network")
    version, = struct.unpack_from("<I", data, 4)
    game = data[8:8 + NAME_LEN].rstrip(b"\0").decode()
    fset = data[8 + NAME_LEN:8 + 2 * NAME_LEN].rstrip(b"\0").decode()
    inputs, hidden, l1, l2, digest = struct.unpack_from("<IIIIQ", data, 8 + 2 * NAME_LEN)
    if version != VERSION or (hidden, l1, l2) != (HIDDEN, L1, L2):
        raise ValueError("unsupported network version or shape")
    off = 8 + 2 * NAME_LEN + 24
    if fnv1a(data[off:]) != digest:
        raise ValueError("weights do not match the hash")

    def take(dtype, count):
        nonlocal off
        a = np.frombuffer(data, dtype, count, off)
        off += a.nbytes
        return a.astype(np.int64)

    net = {"game": game, "feature_set": fset, "inputs": inputs}
    net["ft_bias"] = take("<i2", HIDDEN)
    net["ft_weight"] = take("<i2", inputs * HIDDEN).reshape(inputs, HIDDEN)
    net["b1"] = take("<i4", L1)
    net["w1"] = take("i1", L1 * 2 * HIDDEN).reshape(L1, 2 * HIDDEN)
    net["b2"] = take("<i4", L2)
    net["w2"] = take("i1", L2 * L1).reshape(L2, L1)
    net["b3"] = int(take("<i4", 1)[0])
    net["w3"] = take("i1", L2)
    return net


def accumulator(net, features):
    """The first layer's int16 sums for one perspective's active features (wrapping as
    the C sums do)."""
    acc = net["ft_bias"] + net["ft_weight"][list(features)].sum(axis=0)
    return acc.astype(np.int16).astype(np.int64)


def activate(s):
    return np.where(s < 0, 0, np.minimum(s // QB, 127))


def forward(net, mover_features, other_features):
    """The value in centi-units for the player to move, as nnue_forward gives it."""
    x = np.concatenate([np.clip(accumulator(net, mover_features), 0, 127),
                        np.clip(accumulator(net, other_features), 0, 127)])
    h1 = activate(net["b1"] + net["w1"] @ x)
    h2 = activate(net["b2"] + net["w2"] @ h1)
    out = int(net["b3"] + net["w3"] @ h2)
    return -((-out) // OUT_DIV) if out < 0 else out // OUT_DIV


def read_features(path):
    """The lines of `crown nnue --features`: (result of the first player, score or None,
    player to move, features of player 0, features of player 1) each."""
    rows = []
    with open(path) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            cols = line.rstrip("\n").split("\t")
            score = int(cols[1]) if cols[1] else None
            p0 = [int(v) for v in cols[3].split()] if cols[3] else []
            p1 = [int(v) for v in cols[4].split()] if cols[4] else []
            rows.append((float(cols[0]), score, int(cols[2]), p0, p1))
    return rows


def evaluate_row(net, row):
    _, _, mover, p0, p1 = row
    return forward(net, p0, p1) if mover == 0 else forward(net, p1, p0)
