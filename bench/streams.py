#!/usr/bin/env python3
"""bench/streams.py - the client of bench/streams.sh: holds N event streams of one game
open (spread over several processes, each an asyncio loop of plain sockets), plays moves
through the API, and measures the time from each acknowledged move to its arrival on
every stream. Standard library only. Prints one summary line per figure.
"""
import argparse
import asyncio
import json
import multiprocessing as mp
import random
import re
import statistics
import time
import urllib.request

PLY = re.compile(rb'"ply":(\d+)')


class Stream(asyncio.Protocol):
    """One event stream: the arrival time of each ply seen."""

    def __init__(self, path, host, arrivals, opened):
        self.req = (f"GET {path} HTTP/1.1\r\nHost: {host}\r\n"
                    "Accept: text/event-stream\r\n\r\n").encode()
        self.buf = b""
        self.arrivals = arrivals
        self.opened = opened
        self.first = True

    def connection_made(self, transport):
        transport.write(self.req)

    def data_received(self, data):
        now = time.monotonic()
        self.buf += data
        while b"\n\n" in self.buf:
            event, self.buf = self.buf.split(b"\n\n", 1)
            m = PLY.search(event)
            if m is None:
                continue
            if self.first:
                self.first = False
                self.opened.set_result(True)
            ply = int(m.group(1))
            self.arrivals.setdefault(ply, []).append(now)


async def hold(host, port, path, n, conn, batch):
    loop = asyncio.get_running_loop()
    arrivals = {}
    transports = []
    for i in range(0, n, batch):
        futs = []
        for _ in range(min(batch, n - i)):
            fut = loop.create_future()
            tr, _ = await loop.create_connection(
                lambda f=fut: Stream(path, f"{host}:{port}", arrivals, f), host, port)
            transports.append(tr)
            futs.append(fut)
        await asyncio.wait_for(asyncio.gather(*futs), 60)
    conn.send(("ready", len(transports)))
    # Wait for the parent's word to stop, without blocking the loop.
    while not conn.poll():
        await asyncio.sleep(0.05)
    conn.recv()
    for tr in transports:
        tr.close()
    conn.send(("times", arrivals))


def child(host, port, path, n, conn, batch):
    asyncio.run(hold(host, port, path, n, conn, batch))


def api(base, method, path, body=None, token=None):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(base + path, data=data, method=method)
    req.add_header("Content-Type", "application/json")
    if token:
        req.add_header("Authorization", "Bearer " + token)
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.load(r)


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p / 100 * len(xs)))]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--streams", type=int, default=10000)
    ap.add_argument("--procs", type=int, default=4)
    ap.add_argument("--moves", type=int, default=20)
    ap.add_argument("--gap", type=float, default=1.0, help="seconds between moves")
    ap.add_argument("--batch", type=int, default=100, help="connections opened at once")
    ap.add_argument("--hold", type=float, default=0, help="seconds to hold before moving")
    a = ap.parse_args()
    base = f"http://{a.host}:{a.port}"
    g = api(base, "POST", "/api/games",
            {"game": "kings-valley", "seats": ["human", "human"], "rules": {"max-plies": 300}})
    gid, tokens = g["id"], [s["token"] for s in g["seats"]]
    path = f"/api/games/{gid}/events"
    t0 = time.monotonic()
    pipes, procs = [], []
    per = [a.streams // a.procs + (1 if i < a.streams % a.procs else 0) for i in range(a.procs)]
    for n in per:
        mine, theirs = mp.Pipe()
        p = mp.Process(target=child, args=(a.host, a.port, path, n, theirs, a.batch))
        p.start()
        pipes.append(mine)
        procs.append(p)
    held = sum(c.recv()[1] for c in pipes)
    print(f"streams open: {held} in {time.monotonic() - t0:.1f} s", flush=True)
    if a.hold:
        time.sleep(a.hold)
    print(f"pause: {a.hold:.0f} s", flush=True)
    acks = {}
    pick = random.Random(1)
    state = g["state"]
    for i in range(a.moves):
        seat = state["to_move"]
        legal = state["legal"]
        if state["status"] != "playing" or not legal:
            break
        move = pick.choice(legal)["text"]
        state = api(base, "POST", f"/api/games/{gid}/moves", {"move": move, "ply": state["ply"]},
                    tokens[seat])
        acks[state["ply"]] = time.monotonic()
        time.sleep(a.gap)
    for c in pipes:
        c.send("stop")
    lat, missing = [], 0
    got = [c.recv()[1] for c in pipes]
    for p in procs:
        p.join()
    for ply, t_ack in acks.items():
        n = 0
        for times in got:
            for t in times.get(ply, []):
                lat.append(max(0.0, t - t_ack) * 1000)
                n += 1
        missing += held - n
    print(f"moves: {len(acks)}; events: {len(lat)}; missing: {missing}")
    if lat:
        print(f"broadcast ms: p50 {pct(lat, 50):.1f} p99 {pct(lat, 99):.1f} "
              f"max {max(lat):.1f} mean {statistics.mean(lat):.1f}")


if __name__ == "__main__":
    main()
