#!/usr/bin/env python3
"""bench/soak.py - the traffic of bench/soak.sh: for a set time, honest players (create
games, read and move), AI games, watchers holding event streams, and abusers from other
loopback addresses (127.0.0.2, .3) flooding creates and streams until the limits answer.
Prints requests served, errors by kind, the server's memory over time and the latency
percentiles of the honest players. Standard library only.
"""
import argparse
import collections
import http.client
import json
import random
import socket
import threading
import time


class Stats:
    def __init__(self):
        self.mu = threading.Lock()
        self.kinds = collections.Counter()
        self.honest = []

    def add(self, who, kind, ms=None):
        with self.mu:
            self.kinds[(who, kind)] += 1
            if ms is not None and who == "honest":
                self.honest.append(ms)


def call(conn, method, path, body=None, token=None):
    h = {"Content-Type": "application/json"}
    if token:
        h["Authorization"] = "Bearer " + token
    conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=h)
    r = conn.getresponse()
    data = r.read()
    try:
        return r.status, json.loads(data)
    except ValueError:
        return r.status, None


def timed(stats, who, conn, *a, **k):
    t = time.monotonic()
    try:
        st, body = call(conn, *a, **k)
    except (OSError, http.client.HTTPException) as e:
        stats.add(who, type(e).__name__)
        raise
    stats.add(who, st, (time.monotonic() - t) * 1000)
    return st, body


def honest(port, stats, stop, seed):
    # Each player from an address of its own, as people are.
    src = (f"127.0.1.{seed + 1}", 0)
    rnd = random.Random(seed)
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=src)
    while not stop.is_set():
        try:
            st, g = timed(stats, "honest", conn, "POST", "/api/games",
                          {"game": "kings-valley", "seats": ["human", "human"]})
            if st != 201 and st != 200:
                time.sleep(0.5)
                continue
            state, tokens = g["state"], [s["token"] for s in g["seats"]]
            while state["status"] == "playing" and not stop.is_set():
                st, state2 = timed(stats, "honest", conn, "GET", f"/api/games/{g['id']}")
                move = rnd.choice(state["legal"])["text"]
                st, s2 = timed(stats, "honest", conn, "POST", f"/api/games/{g['id']}/moves",
                               {"move": move, "ply": state["ply"]}, tokens[state["to_move"]])
                if st != 200:
                    break
                state = s2
                time.sleep(0.05)
        except (OSError, http.client.HTTPException):
            conn.close()
            time.sleep(0.2)
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=src)


def creator(port, stats, stop, who, seats, source, pause):
    """Creates games with these seats from `source` again and again: AI games, or abuse."""
    def fresh():
        return http.client.HTTPConnection("127.0.0.1", port, timeout=30,
                                          source_address=(source, 0))
    conn = fresh()
    while not stop.is_set():
        try:
            timed(stats, who, conn, "POST", "/api/games", {"game": "kings-valley", "seats": seats})
        except (OSError, http.client.HTTPException):
            conn.close()
            conn = fresh()
            stop.wait(0.1)
        stop.wait(pause)


def watchers(port, stats, stop, n, source="127.0.0.1", who="watch"):
    """Holds up to n event streams of fresh games from `source`, reopening closed ones."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=(source, 0))
    socks = []
    while not stop.is_set():
        try:
            st, g = timed(stats, who, conn, "POST", "/api/games",
                          {"game": "kings-valley", "seats": ["human", "human"]})
        except (OSError, http.client.HTTPException):
            conn.close()
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30,
                                              source_address=(source, 0))
            stop.wait(0.5)
            continue
        if st not in (200, 201):
            stop.wait(0.5)
            continue
        while len(socks) < n and not stop.is_set():
            try:
                s = socket.create_connection(("127.0.0.1", port), 5, (source, 0))
                s.sendall(f"GET /api/games/{g['id']}/events HTTP/1.1\r\n"
                          f"Host: 127.0.0.1:{port}\r\n\r\n".encode())
                s.settimeout(5)
                head = s.recv(4096)
                kind = head.split(b" ", 2)[1].decode() if head.startswith(b"HTTP/") else "closed"
                stats.add(who + "-stream", kind)
                if kind == "200":
                    socks.append(s)
                else:
                    s.close()
                    break
            except OSError as e:
                stats.add(who + "-stream", type(e).__name__)
                break
        # Drop a few, as people leave.
        for s in socks[:max(1, len(socks) // 20)]:
            s.close()
        socks = socks[max(1, len(socks) // 20):]
        stop.wait(1)
    for s in socks:
        s.close()


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p / 100 * len(xs)))] if xs else float("nan")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--pid", type=int, required=True)
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--honest", type=int, default=8)
    ap.add_argument("--streams", type=int, default=200)
    a = ap.parse_args()
    stats, stop = Stats(), threading.Event()
    threads = [threading.Thread(target=honest, args=(a.port, stats, stop, i)) for i in range(a.honest)]
    threads.append(threading.Thread(target=creator, args=(a.port, stats, stop, "ai",
                                                          ["ai:3", "ai:3"], "127.0.0.1", 2)))
    threads.append(threading.Thread(target=watchers, args=(a.port, stats, stop, a.streams)))
    for src in ("127.0.0.2", "127.0.0.3"):
        threads.append(threading.Thread(target=creator, args=(a.port, stats, stop, "abuse",
                                                              ["random", "random"], src, 0)))
        threads.append(threading.Thread(target=watchers,
                                        args=(a.port, stats, stop, 2000, src, "abuse")))
    for t in threads:
        t.start()
    t0 = time.monotonic()
    while time.monotonic() - t0 < a.seconds:
        time.sleep(min(10, a.seconds))
        with open(f"/proc/{a.pid}/status") as f:
            rss = next(l.split()[1] for l in f if l.startswith("VmRSS"))
        with stats.mu:
            served = sum(stats.kinds.values())
        print(f"t={time.monotonic() - t0:5.0f} s  server RSS {rss} kB  requests so far {served}",
              flush=True)
    stop.set()
    for t in threads:
        t.join()
    print("requests by client and answer:")
    for (who, kind), n in sorted(stats.kinds.items(), key=lambda kv: (kv[0][0], str(kv[0][1]))):
        print(f"  {who:14} {str(kind):22} {n}")
    h = stats.honest
    print(f"honest latency ms over {len(h)} requests: p50 {pct(h, 50):.1f} p99 {pct(h, 99):.1f} "
          f"max {max(h) if h else float('nan'):.1f}")


if __name__ == "__main__":
    main()
