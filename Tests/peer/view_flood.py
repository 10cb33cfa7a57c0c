#!/usr/bin/env python3
"""Floods a running `poise view` on loopback, for measuring its memory and CPU by hand.

Standard library only; every flood is bounded in count and time and stops by itself.

  view_flood.py headers --port P [--connections 6] [--kib 1024]   one long header line each
  view_flood.py slow    --port P [--connections 3000] [--seconds 60] a byte every 5 s each
  view_flood.py churn   --port P [--clients 200] [--rounds 30]    WebSocket open/first message/close
  view_flood.py names   --udp P [--names 100000] [--snapshots 500] distinct NAMED_VALUE_FLOAT names
  view_flood.py descriptors --port P [--connections 400]          hold many idle connections
"""
import argparse, base64, os, select, socket, struct, sys, time

def connect(port, timeout=10):
    s = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    return s

def headers(a):
    socks = []
    for _ in range(a.connections):
        try:
            s = connect(a.port); s.setblocking(False)
            socks.append([s, b"GET / HTTP/1.1\r\nHost: x\r\nX-Long: " + b"a" * (a.kib * 1024)])
        except OSError as e:
            print("connect:", e)
    end = time.time() + a.seconds
    answers = {}
    while socks and time.time() < end:
        for entry in list(socks):
            s, rest = entry
            try:
                if rest:
                    n = s.send(rest[:65536]); entry[1] = rest[n:]
                data = s.recv(4096)
                if data == b"":
                    socks.remove(entry); continue
                answers[data.split(b"\r\n")[0]] = answers.get(data.split(b"\r\n")[0], 0) + 1
                socks.remove(entry)
            except BlockingIOError:
                pass
            except OSError:
                socks.remove(entry)
        time.sleep(0.01)
    print("answers:", answers, "still open after", a.seconds, "s:", len(socks))

def slow(a):
    socks = []
    for _ in range(a.connections):
        try:
            s = connect(a.port); s.send(b"GET / HTTP/1.1\r\nHost: x\r\n"); socks.append(s)
        except OSError:
            break
    print("opened", len(socks))
    end = time.time() + a.seconds
    while time.time() < end:
        alive = []
        for s in socks:
            try:
                s.send(b"X"); alive.append(s)
            except OSError:
                s.close()
        socks = alive
        time.sleep(5)
    print("still open after", a.seconds, "s:", len(socks))

def ws_open(port):
    s = connect(port)
    key = base64.b64encode(os.urandom(16)).decode()
    s.send(("GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            "Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n" % key).encode())
    return s

def churn(a):
    for r in range(a.rounds):
        socks = []
        for _ in range(a.clients):
            try: socks.append(ws_open(a.port))
            except OSError as e: print("connect:", e)
        for s in socks:
            try: s.recv(4096)
            except OSError: pass
        for s in socks:
            try: s.send(b"\x88\x82" + os.urandom(4) + b"\x03\xe8"[:0] + b"\x00\x00")
            except OSError: pass
            s.close()
    print("churn done:", a.clients, "x", a.rounds)

def crc(data):
    c = 0xFFFF
    for b in data:
        t = b ^ (c & 0xFF); t = (t ^ (t << 4)) & 0xFF
        c = ((c >> 8) ^ (t << 8) ^ (t << 3) ^ (t >> 4)) & 0xFFFF
    return c

def frame(seq, msgid, extra, payload):
    payload = payload.rstrip(b"\x00") or b"\x00"
    head = struct.pack("<BBBBBBBI", 0xFD, len(payload), 0, 0, seq & 0xFF, 1, 1, msgid)[:10]
    body = head[1:] + payload
    return head + payload + struct.pack("<H", crc(body + bytes([extra])))

def names(a):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    seq = 0
    per = max(1, a.names // a.snapshots)
    n = 0
    for k in range(a.snapshots):
        for _ in range(per):
            name = ("v%d" % n).encode()[:10].ljust(10, b"\x00")
            s.sendto(frame(seq, 251, 170, struct.pack("<If", k, float(n)) + name), ("127.0.0.1", a.udp)); seq += 1; n += 1
        s.sendto(frame(seq, 31, 246, struct.pack("<I7f", k * 20, 1, 0, 0, 0, 0, 0, 0)), ("127.0.0.1", a.udp)); seq += 1
        time.sleep(0.02)
    print("sent", n, "names and", a.snapshots, "attitudes")

def descriptors(a):
    socks = []
    for _ in range(a.connections):
        try: socks.append(connect(a.port, timeout=2))
        except OSError: pass
    time.sleep(a.seconds)
    print("held", len(socks))

p = argparse.ArgumentParser()
p.add_argument("mode"); p.add_argument("--port", type=int); p.add_argument("--udp", type=int)
p.add_argument("--connections", type=int, default=6); p.add_argument("--kib", type=int, default=1024)
p.add_argument("--seconds", type=float, default=60); p.add_argument("--clients", type=int, default=200)
p.add_argument("--rounds", type=int, default=30); p.add_argument("--names", type=int, default=100000)
p.add_argument("--snapshots", type=int, default=500)
a = p.parse_args()
{"headers": headers, "slow": slow, "churn": churn, "names": names, "descriptors": descriptors}[a.mode](a)
