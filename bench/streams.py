#!/usr/bin/env python3
"""bench/streams.py - the client of bench/streams.sh: holds N event streams of one game
open (spread over several processes, each an epoll loop of plain sockets), plays moves
through the API, and measures the time from each acknowledged move to its arrival on
every stream. Standard library only. Prints one summary line per figure.

Times are the kernel's receive timestamps (SO_TIMESTAMPNS), taken when the bytes reach
the client's socket, not when a busy client process gets round to reading them: the
client's own speed (Python, on a loaded machine) must not count against the server; and
the holders read each move's events only after its broadcast (told by the driver half a
gap after the move), so that their reading does not take the machine from the server's
sends while they last (it took more CPU than the server). A
move counts as acknowledged when its answer reaches the mover's socket; an event
counts as arrived when its last byte reaches its stream's socket.
"""
import argparse
import json
import multiprocessing as mp
import os
import random
import re
import select
import socket
import statistics
import struct
import time

PLY = re.compile(rb'"ply":(\d+)')
SO_TIMESTAMPNS = 35  # Linux; the socket module does not name it
ANC = socket.CMSG_SPACE(16)


def stamped(sock, bufsize=65536):
    """recvmsg with its kernel receive time (seconds, the realtime clock)."""
    data, anc, _, _ = sock.recvmsg(bufsize, ANC)
    for level, kind, d in anc:
        if level == socket.SOL_SOCKET and kind == SO_TIMESTAMPNS and len(d) >= 16:
            sec, nsec = struct.unpack("qq", d[:16])
            return data, sec + nsec / 1e9
    return data, time.time()


def connect(host, port):
    s = socket.create_connection((host, port))
    s.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
    return s


def hold(host, port, path, n, conn, batch):
    """One client process: n streams, then arrival times per ply until told to stop."""
    req = (f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\n"
           "Accept: text/event-stream\r\n\r\n").encode()
    ep = select.epoll()
    socks, bufs, arrivals = {}, {}, {}
    waiting = set()  # streams whose first state has not come yet

    def pump(timeout):
        """Reads what the ready streams hold; whether any was ready."""
        ready = ep.poll(timeout, 1024)
        for fd, _ in ready:
            s = socks[fd]
            try:
                data, t = stamped(s)
            except BlockingIOError:
                continue
            if not data:
                ep.unregister(fd)
                continue
            buf = bufs[fd] + data
            while True:
                end = buf.find(b"\n\n")
                if end < 0:
                    break
                m = PLY.search(buf, 0, end)
                buf = buf[end + 2:]
                if m is None:
                    continue
                waiting.discard(fd)
                arrivals.setdefault(int(m.group(1)), []).append(t)
            bufs[fd] = buf
        return bool(ready)

    for i in range(0, n, batch):
        for _ in range(min(batch, n - i)):
            s = connect(host, port)
            s.sendall(req)
            s.setblocking(False)
            socks[s.fileno()] = s
            bufs[s.fileno()] = b""
            waiting.add(s.fileno())
            ep.register(s.fileno(), select.EPOLLIN)
        deadline = time.monotonic() + 60
        while waiting and time.monotonic() < deadline:
            pump(0.1)
    conn.send(("ready", n - len(waiting)))
    arrivals.clear()
    # Read only when told, between broadcasts: a client that reads as events arrive
    # competes with the server's sends for the machine, and each of its wake-ups is
    # charged to the sending side (loopback runs the receiver's part in the sender's
    # system call); clients elsewhere cost the server neither.
    while conn.recv() == "read":
        while pump(0):
            pass
        conn.send("read")
    for s in socks.values():
        s.close()
    conn.send(("times", arrivals))


def api(host, port, method, path, body=None, token=None):
    """One request on its own connection: the answer and when it reached the socket."""
    data = json.dumps(body).encode() if body is not None else b""
    head = (f"{method} {path} HTTP/1.1\r\nHost: {host}:{port}\r\nConnection: close\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n")
    if token:
        head += f"Authorization: Bearer {token}\r\n"
    s = connect(host, port)
    sent = time.time()
    s.sendall(head.encode() + b"\r\n" + data)
    got, first = b"", None
    while True:
        chunk, t = stamped(s)
        if not chunk:
            break
        first = first or t
        got += chunk
    s.close()
    api.sent = sent
    status = int(got.split(b" ", 2)[1])
    body = got.split(b"\r\n\r\n", 1)[1]
    if status // 100 != 2:
        raise SystemExit(f"{method} {path}: {status} {body[:200]!r}")
    return json.loads(body), first


def runnable(samples=5):
    """The machine's runnable threads other than this one (procs_running of /proc/stat),
    sampled a few times 5 ms apart: the load of other processes just before a move, when
    the server and the stream holders are idle, which the 1-minute average follows only
    slowly."""
    got = []
    for _ in range(samples):
        with open("/proc/stat", encoding="ascii") as f:
            for line in f:
                if line.startswith("procs_running "):
                    got.append(int(line.split()[1]) - 1)
                    break
        time.sleep(0.005)
    return got


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p / 100 * len(xs)))]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--streams", type=int, default=10000)
    ap.add_argument("--procs", type=int, default=2)
    ap.add_argument("--moves", type=int, default=20)
    ap.add_argument("--gap", type=float, default=1.0, help="seconds between moves")
    ap.add_argument("--batch", type=int, default=100, help="connections opened at once")
    ap.add_argument("--hold", type=float, default=0, help="seconds to hold before moving")
    ap.add_argument("--per-move", action="store_true",
                    help="also a line per move: its first, median and last arrival")
    a = ap.parse_args()
    g, _ = api(a.host, a.port, "POST", "/api/games",
               {"game": "kings-valley", "seats": ["human", "human"],
                "rules": {"max-plies": 300}})
    gid, tokens = g["id"], [s["token"] for s in g["seats"]]
    path = f"/api/games/{gid}/events"
    t0 = time.monotonic()
    pipes, procs = [], []
    per = [a.streams // a.procs + (1 if i < a.streams % a.procs else 0) for i in range(a.procs)]
    for n in per:
        mine, theirs = mp.Pipe()
        p = mp.Process(target=hold, args=(a.host, a.port, path, n, theirs, a.batch))
        p.start()
        pipes.append(mine)
        procs.append(p)
    held = sum(c.recv()[1] for c in pipes)
    print(f"streams open: {held} in {time.monotonic() - t0:.1f} s", flush=True)
    if a.hold:
        time.sleep(a.hold)
    print(f"pause: {a.hold:.0f} s", flush=True)
    acks, sends = {}, {}
    pick = random.Random(1)
    state = g["state"]
    others = []
    for _ in range(a.moves):
        seat = state["to_move"]
        legal = state["legal"]
        if state["status"] != "playing" or not legal:
            break
        move = pick.choice(legal)["text"]
        others += runnable()
        state, t_ack = api(a.host, a.port, "POST", f"/api/games/{gid}/moves",
                           {"move": move, "ply": state["ply"]}, tokens[seat])
        acks[state["ply"]] = t_ack
        sends[state["ply"]] = api.sent
        time.sleep(a.gap / 2)
        t = time.monotonic()
        for c in pipes:
            c.send("read")
        for c in pipes:
            c.recv()
        time.sleep(max(0.0, a.gap / 2 - (time.monotonic() - t)))
    print(f"played: {len(acks)} moves", flush=True)
    for c in pipes:
        c.send("stop")
    lat, from_sent, missing = [], [], 0
    got = [c.recv()[1] for c in pipes]
    for p in procs:
        p.join()
    for ply, t_ack in acks.items():
        mine = [(t - t_ack) * 1000 for times in got for t in times.get(ply, [])]
        lat += [max(0.0, x) for x in mine]
        from_sent += [(t - sends[ply]) * 1000 for times in got for t in times.get(ply, [])]
        missing += held - len(mine)
        if a.per_move and mine:
            print(f"ply {ply}: first {min(mine):.1f} p50 {pct(mine, 50):.1f} "
                  f"p99 {pct(mine, 99):.1f} last {max(mine):.1f} ms from the ack")
    print(f"moves: {len(acks)}; events: {len(lat)}; missing: {missing}")
    if lat:
        # The load beside the figure: on a shared machine the tail follows the load of
        # other processes, so a figure without it cannot be compared with another.
        with open("/proc/loadavg", encoding="ascii") as f:
            load = f.read().split()[0]
        rn = others or [0]
        print(f"broadcast ms: p50 {pct(lat, 50):.1f} p99 {pct(lat, 99):.1f} "
              f"max {max(lat):.1f} mean {statistics.mean(lat):.1f} at load {load} "
              f"on {os.cpu_count()} cores (other runnable threads before the moves: mean "
              f"{statistics.mean(rn):.1f}, median {statistics.median(rn):.0f})")
        # From the move's request instead: what a watcher waits in all, whether the
        # server answers the mover before or after it wakes the streams.
        print(f"from the move's request ms: p50 {pct(from_sent, 50):.1f} "
              f"p99 {pct(from_sent, 99):.1f} max {max(from_sent):.1f}")


if __name__ == "__main__":
    main()
