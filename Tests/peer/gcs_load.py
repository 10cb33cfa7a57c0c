#!/usr/bin/env python3
"""Load at Poise's receive port, for the ground station's cost measurements and tests.

Acts as the ground station Poise sends to (gcs_peer.Station), then for --seconds:
  quiet    only listens (the A of an A/B pair: the link is up, nothing comes in)
  manual   a MANUAL_CONTROL stream at --rate Hz (50: QGroundControl's virtual joystick)
  flood    random and hostile datagrams at --rate per second, from the ground station's own
           address and port (the only one Poise's connected socket hears) and from others:
           random bytes, MAVLink-looking junk, over-long datagrams, bad checksums, frames for
           other systems, and well-formed PARAM_SET / arm / MANUAL_CONTROL frames unsigned or
           signed with a wrong key (refused when Poise holds a key, as in the flood's set-up).
--to-sink sends the same load to a loopback socket that never reads it instead of to Poise:
the control of an A/B pair, which costs this process and the kernel the same and Poise's
receive path nothing. With --key HEX the station signs its own requests. Before and after the load it reads every
parameter (PARAM_REQUEST_LIST), and prints one finding:
  {"finding": "load", "sent": N, "params_before": {...}, "params_after": {...}, "armed_seen": bool}
Pacing by the wall clock here is the load's, not a measurement's.
"""
import argparse
import os
import random
import socket
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gcs_peer import Station, mavlink2  # noqa: E402


def parameters(s):
    s.send(mavlink2.MAVLink_param_request_list_message(1, 1))
    values, count, start = {}, None, len(s.received)
    while count is None or len(values) < count:
        if s.wait_for("PARAM_VALUE", 1.0) is None:
            break
        for r in s.received[start:]:
            if r["type"] == "PARAM_VALUE":
                values[r["fields"]["param_id"]] = r["fields"]["param_value"]
                count = r["fields"]["param_count"]
        start = len(s.received)
    return values


class Hostile:
    """One random or hostile datagram after another, reproducible from a seed."""

    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.mav = mavlink2.MAVLink(None, srcSystem=255, srcComponent=190)
        self.wrong = mavlink2.MAVLink(None, srcSystem=255, srcComponent=190)
        self.wrong.signing.secret_key = self.rng.randbytes(32)
        self.wrong.signing.link_id = 1
        self.wrong.signing.sign_outgoing = True
        self.wrong.signing.timestamp = int((time.time() - 1420070400) * 100000)
        self.kind = 0

    def frames(self):
        r = self.rng
        return [
            mavlink2.MAVLink_param_set_message(1, 1, b"BAL_PIT_P", r.uniform(-1e6, 1e6), 9),
            mavlink2.MAVLink_param_set_message(1, 1, b"SAFE_MAX_TILT", 1.0, 9),
            mavlink2.MAVLink_command_long_message(1, 1, 400, 0, 1, 21196, 0, 0, 0, 0, 0),   # arm, forced
            mavlink2.MAVLink_command_long_message(1, 1, 245, 0, 1, 0, 0, 0, 0, 0, 0),       # store
            mavlink2.MAVLink_manual_control_message(1, 1000, 1000, 1000, 1000, 0xFFFF),
            mavlink2.MAVLink_param_set_message(7, 1, b"BAL_PIT_P", 0.0, 9),                 # another system
        ]

    def next(self):
        r = self.rng
        self.kind = (self.kind + 1) % 8
        k = self.kind
        if k == 0:
            return r.randbytes(r.randrange(1, 300))
        if k == 1:
            return b"\xfd" + r.randbytes(r.randrange(0, 280))
        if k == 2:
            return b"\xfd\xff\x00\x00" + r.randbytes(r.randrange(1100, 4000))
        if k == 3:
            good = r.choice(self.frames()).pack(self.mav)
            i = r.randrange(len(good))
            return good[:i] + bytes([good[i] ^ (1 << r.randrange(8))]) + good[i + 1:]    # one bit flipped
        if k == 4:
            good = r.choice(self.frames()).pack(self.mav)
            return good[: r.randrange(1, len(good))]                                      # truncated
        if k == 5:
            return r.choice(self.frames()).pack(self.wrong)                               # wrong key
        if k == 6:
            return b"".join(f.pack(self.mav) for f in self.frames())                      # many frames, unsigned
        return r.choice(self.frames()).pack(self.mav)                                     # unsigned


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", choices=["quiet", "manual", "flood"], required=True)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--rate", type=float, default=50)
    parser.add_argument("--count", type=int, default=0, help="stop the flood after this many datagrams")
    parser.add_argument("--key", default=None)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--wait", type=float, default=30)
    parser.add_argument("--to-sink", action="store_true", help="send the load where nothing reads it (the control)")
    args = parser.parse_args()
    s = Station(0, 2.0, bytes.fromhex(args.key) if args.key else None)
    s.emit({"listening": s.sock.getsockname()[1]})
    if s.wait_for("HEARTBEAT", args.wait) is None:
        s.emit({"finding": "no_heartbeat"})
        return 1
    s.emit = lambda obj: None if "type" in obj else print(__import__("json").dumps(obj), flush=True)
    before = parameters(s)
    other = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sink = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sink.bind(("127.0.0.1", 0))
    target = sink.getsockname() if args.to_sink else s.peer
    hostile = Hostile(args.seed)
    sent, start = 0, time.monotonic()
    end = start + args.seconds
    while time.monotonic() < end and (args.count == 0 or sent < args.count):
        due = start + sent / args.rate
        now = time.monotonic()
        if due > now:
            s.pump(min(due - now, 0.05)) if args.mode != "flood" else time.sleep(due - now)
            continue
        if args.mode == "manual":
            data = mavlink2.MAVLink_manual_control_message(1, 0, 0, 500, 0, 0).pack(s.mav)
            s.sock.sendto(data, target)
        elif args.mode == "flood":
            data = hostile.next()
            (other if sent % 16 == 15 else s.sock).sendto(data, target)
        sent += 1
        if args.mode == "flood" and sent % 256 == 0:
            s.pump(0.001)   # keep up with what Poise sends
    s.pump(0.3)
    after = parameters(s)
    armed = any(m["type"] == "HEARTBEAT" and m["fields"]["base_mode"] & 128 for m in s.received)
    s.emit({"finding": "load", "mode": args.mode, "to_sink": args.to_sink, "sent": sent, "params_before": before, "params_after": after,
            "armed_seen": armed})
    s.emit({"finding": "done"})
    return 0


if __name__ == "__main__":
    sys.exit(main())
