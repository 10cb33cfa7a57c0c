#!/usr/bin/env python3
"""A ground station for Poise's tests: pymavlink (dialect common) on a loopback UDP port,
answering to wherever Poise's telemetry comes from (as QGroundControl does).

Prints {"listening": PORT} first; then waits for Poise's first HEARTBEAT and runs a scenario,
printing one JSON object per finding. Everything Poise sends is printed as well, with
"type", as mavlink_peer.py prints it, so a test can look at heartbeats and status texts.

Scenarios (--scenario; several, comma-separated, run one after the other: arm,params):
  params   list, read, set (BAL_PIT_P to 31.5), set a restart-only key (LOOP_RT), store
  readback read BAL_PIT_P (after a restart: the stored value)
  unstored set BAL_PIT_P to 32.0 without storing it, wait (--wait s) for the reload (SIGHUP)
           that undoes it to say so (STATUSTEXT), then read BAL_PIT_P back
  arm      arm by command (again every 0.5 s until accepted, for --stream s), then disarm
  manual   arm, stream MANUAL_CONTROL (full forward stick) for --stream s, then stop sending
  signed   with --key HEX: an unsigned, a signed and a replayed PARAM_SET
  garbage  random and hostile datagrams, then a PARAM_REQUEST_READ that must still answer
"""
import argparse
import json
import math
import os
import random
import socket
import sys
import time

os.environ["MAVLINK20"] = "1"
os.environ["MAVLINK_DIALECT"] = "common"
from pymavlink.dialects.v20 import common as mavlink2  # noqa: E402


def jsonable(value):
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if isinstance(value, (bytes, bytearray)):
        return value.decode("ascii", "replace").rstrip("\x00")
    if isinstance(value, list):
        return [jsonable(v) for v in value]
    return value


class Station:
    def __init__(self, port, idle, key=None):
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind(("127.0.0.1", port))
        self.sock.settimeout(0.05)
        self.idle = idle
        self.peer = None
        self.mav = mavlink2.MAVLink(None, srcSystem=255, srcComponent=190)
        self.mav.robust_parsing = True
        self.key = key
        self.received = []
        self.last_sent = None

    def emit(self, obj):
        print(json.dumps(obj), flush=True)

    def pump(self, seconds):
        """Receives for `seconds`, printing and keeping every message."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            try:
                datagram, address = self.sock.recvfrom(65536)
            except socket.timeout:
                continue
            self.peer = address
            self.take(datagram)

    def take(self, datagram):
        """Parses one datagram, printing and keeping every message in it."""
        for msg in self.mav.parse_buffer(datagram) or []:
            kind = msg.get_type()
            out = {"type": kind, "signed": bool(getattr(msg, "_signed", False))}
            if kind != "BAD_DATA":
                out["fields"] = {k: jsonable(v) for k, v in msg.to_dict().items() if k != "mavpackettype"}
            self.received.append(out)
            self.emit(out)

    def wait_for(self, kind, seconds, predicate=lambda m: True):
        start = len(self.received)
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            self.pump(0.05)
            for m in self.received[start:]:
                if m["type"] == kind and predicate(m):
                    return m
        return None

    def send(self, msg, signed=None):
        signing = self.key is not None if signed is None else signed
        if signing:
            self.mav.signing.secret_key = self.key
            self.mav.signing.link_id = 1
            self.mav.signing.sign_outgoing = True
            if self.mav.signing.timestamp == 0:
                self.mav.signing.timestamp = int((time.time() - 1420070400) * 100000)
        else:
            self.mav.signing.sign_outgoing = False
        data = msg.pack(self.mav)
        self.last_sent = data
        self.sock.sendto(data, self.peer)

    def raw(self, data):
        self.sock.sendto(data, self.peer)


def scenario_params(s, args):
    s.send(mavlink2.MAVLink_param_request_list_message(1, 1))
    values = {}
    end = time.monotonic() + 5
    count = None
    while time.monotonic() < end and (count is None or len(values) < count):
        m = s.wait_for("PARAM_VALUE", 0.5)
        for r in s.received:
            if r["type"] == "PARAM_VALUE":
                values[r["fields"]["param_id"]] = r["fields"]["param_value"]
                count = r["fields"]["param_count"]
        if m is None and count is not None:
            break
    s.emit({"finding": "list", "count": count, "names": sorted(values)})
    s.send(mavlink2.MAVLink_param_request_read_message(1, 1, b"SAFE_ARM_TILT", -1))
    m = s.wait_for("PARAM_VALUE", 2, lambda m: m["fields"]["param_id"] == "SAFE_ARM_TILT")
    s.emit({"finding": "read", "value": m and m["fields"]["param_value"]})
    s.send(mavlink2.MAVLink_param_set_message(1, 1, b"BAL_PIT_P", 31.5, 9))
    m = s.wait_for("PARAM_VALUE", 2, lambda m: m["fields"]["param_id"] == "BAL_PIT_P")
    s.emit({"finding": "set", "value": m and m["fields"]["param_value"]})
    s.send(mavlink2.MAVLink_param_set_message(1, 1, b"SAFE_MAX_TILT", 500, 9))
    m = s.wait_for("STATUSTEXT", 2, lambda m: "SAFE_MAX_TILT" in m["fields"]["text"])
    s.emit({"finding": "out_of_range", "text": m and m["fields"]["text"]})
    s.send(mavlink2.MAVLink_param_set_message(1, 1, b"LOOP_RT", 300, 9))
    m = s.wait_for("STATUSTEXT", 2, lambda m: "LOOP_RT" in m["fields"]["text"])
    s.emit({"finding": "restart_only", "text": m and m["fields"]["text"]})
    s.send(mavlink2.MAVLink_command_long_message(1, 1, 245, 0, 1, 0, 0, 0, 0, 0, 0))
    m = s.wait_for("COMMAND_ACK", 2, lambda m: m["fields"]["command"] == 245)
    s.emit({"finding": "store", "result": m and m["fields"]["result"]})
    s.pump(0.3)
    texts = [r["fields"]["text"] for r in s.received if r["type"] == "STATUSTEXT" and "stored" in r["fields"]["text"]]
    s.emit({"finding": "store_text", "text": texts[-1] if texts else None})
    s.send(mavlink2.MAVLink_command_long_message(1, 1, 31000, 0, 0, 0, 0, 0, 0, 0, 0))
    m = s.wait_for("COMMAND_ACK", 2, lambda m: m["fields"]["command"] == 31000)
    s.emit({"finding": "unsupported", "result": m and m["fields"]["result"]})


def scenario_readback(s, args):
    s.send(mavlink2.MAVLink_param_request_read_message(1, 1, b"BAL_PIT_P", -1))
    m = s.wait_for("PARAM_VALUE", 2, lambda m: m["fields"]["param_id"] == "BAL_PIT_P")
    s.emit({"finding": "read_back", "value": m and m["fields"]["param_value"]})


def scenario_unstored(s, args):
    s.send(mavlink2.MAVLink_param_set_message(1, 1, b"BAL_PIT_P", 32.0, 9))
    m = s.wait_for("PARAM_VALUE", 2, lambda m: m["fields"]["param_id"] == "BAL_PIT_P" and m["fields"]["param_value"] == 32.0)
    s.emit({"finding": "unstored_set", "value": m and m["fields"]["param_value"]})
    m = s.wait_for("STATUSTEXT", args.wait, lambda m: m["fields"]["text"].startswith("SIGHUP reverted"))
    s.emit({"finding": "reverted", "text": m and m["fields"]["text"]})
    scenario_readback(s, args)


def arm(s, value):
    s.send(mavlink2.MAVLink_command_long_message(1, 1, 400, 0, value, 0, 0, 0, 0, 0, 0))
    m = s.wait_for("COMMAND_ACK", 2, lambda m: m["fields"]["command"] == 400)
    return m and m["fields"]["result"]


def arm_until_accepted(s, seconds):
    """Presses "arm" every half second until it is accepted (as a user would), or gives up."""
    end = time.monotonic() + seconds
    tries = 0
    while True:
        tries += 1
        result = arm(s, 1)
        if result == 0 or time.monotonic() > end:
            return {"result": result, "tries": tries}
        s.pump(0.5)


def scenario_arm(s, args):
    s.pump(args.settle)
    s.emit(dict(finding="arm", **arm_until_accepted(s, args.stream)))
    s.pump(1.0)
    s.emit({"finding": "disarm", "result": arm(s, 0)})
    s.pump(0.5)


def scenario_manual(s, args):
    s.pump(args.settle)
    s.emit(dict(finding="arm", **arm_until_accepted(s, 5)))
    end = time.monotonic() + args.stream
    while time.monotonic() < end:
        s.send(mavlink2.MAVLink_manual_control_message(1, 1000, 0, 500, 0, 0))
        s.pump(0.02)
    s.emit({"finding": "stopped"})
    s.pump(1.5)


def scenario_signed(s, args):
    s.send(mavlink2.MAVLink_param_set_message(1, 1, b"BAL_PIT_P", 11.0, 9), signed=False)
    m = s.wait_for("STATUSTEXT", 2, lambda m: "BAL_PIT_P" in m["fields"]["text"])
    s.emit({"finding": "unsigned", "text": m and m["fields"]["text"]})
    s.send(mavlink2.MAVLink_param_set_message(1, 1, b"BAL_PIT_P", 12.0, 9), signed=True)
    m = s.wait_for("PARAM_VALUE", 2, lambda m: m["fields"]["param_id"] == "BAL_PIT_P")
    s.emit({"finding": "signed", "value": m and m["fields"]["param_value"], "reply_signed": m and m["signed"]})
    replay = s.last_sent
    s.send(mavlink2.MAVLink_param_set_message(1, 1, b"BAL_PIT_P", 13.0, 9), signed=True)
    s.wait_for("PARAM_VALUE", 2, lambda m: m["fields"]["param_id"] == "BAL_PIT_P" and m["fields"]["param_value"] == 13.0)
    s.raw(replay)   # the 12.0 frame again: its timestamp is behind the 13.0 one's
    m = s.wait_for("STATUSTEXT", 2, lambda m: "BAL_PIT_P" in m["fields"]["text"])
    s.emit({"finding": "replayed", "text": m and m["fields"]["text"]})


def scenario_garbage(s, args):
    rng = random.Random(7)
    for i in range(args.count):
        kind = i % 4
        if kind == 0:
            data = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 300)))
        elif kind == 1:
            data = b"\xfd" + bytes(rng.randrange(256) for _ in range(rng.randrange(0, 40)))
        elif kind == 2:
            data = b"\xfd\xff\x00\x00" + bytes(4000)   # longer than any frame
        else:
            good = mavlink2.MAVLink_param_request_read_message(1, 1, b"SAFE_ARM_TILT", -1).pack(s.mav)
            data = good[:-1] + bytes([good[-1] ^ 0xFF])   # bad checksum
        s.raw(data)
    s.pump(0.3)
    s.send(mavlink2.MAVLink_param_request_read_message(1, 1, b"SAFE_ARM_TILT", -1))
    m = s.wait_for("PARAM_VALUE", 3, lambda m: m["fields"]["param_id"] == "SAFE_ARM_TILT")
    s.emit({"finding": "after_garbage", "value": m and m["fields"]["param_value"]})


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--scenario", required=True)
    parser.add_argument("--key", default=None)
    parser.add_argument("--settle", type=float, default=2.0)
    parser.add_argument("--stream", type=float, default=2.0)
    parser.add_argument("--count", type=int, default=400)
    parser.add_argument("--wait", type=float, default=20.0)
    args = parser.parse_args()
    key = bytes.fromhex(args.key) if args.key else None
    s = Station(0, 2.0, key)
    s.emit({"listening": s.sock.getsockname()[1]})
    if s.wait_for("HEARTBEAT", args.wait) is None:
        s.emit({"finding": "no_heartbeat"})
        return 1
    for scenario in args.scenario.split(","):
        globals()["scenario_" + scenario](s, args)
    s.emit({"finding": "done"})
    return 0


if __name__ == "__main__":
    sys.exit(main())
