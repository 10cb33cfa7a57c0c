#!/usr/bin/env python3
"""Attacks on Poise's signed ground link, for the attack suite (Tests/PoiseTelemetryTests/
GroundLinkAttackTests.swift): pymavlink on loopback, as someone on the robot's Wi-Fi would.
Bounded: every flood has a count and every wait a limit.

Prints {"listening": PORT} first, waits for Poise's first HEARTBEAT, runs the scenario and
prints one JSON object per finding (and every message Poise sends, with "type").

Scenarios (--scenario, all with --key HEX):
  capture    arm by a signed command (again every 0.5 s until accepted), print the accepted
             frame's bytes ("captured"), disarm; "sent_timestamps" gives the range of
             Poise's own signing timestamps seen
  replay     --frame HEX: send that captured frame as it is; the COMMAND_ACK, the STATUSTEXT,
             whether any HEARTBEAT said armed, and Poise's signing timestamps seen
  ahead      a signed PARAM_SET stamped a year ahead (refused, not remembered), then one
             stamped now, which must be taken
  disarm_flood  --count N datagrams of 53 unsigned PARAM_SETs of an unknown name (1 KiB each)
             at --rate per s, a signed DISARM every 0.2 s from the middle of it until
             acknowledged: how many tries and how long
  widen      arm by a signed command, then signed PARAM_SETs that widen safety limits while armed
             (SAFE_MAX_TILT 180, SAFE_ARM_HOLD 0), one that breaks a cross-key rule
             (SAFE_ARM_TILT above SAFE_MAX_TILT) and one that narrows (SAFE_MAX_TILT 40):
             the value in force after each, and the STATUSTEXTs
  disarm_latency  for --seconds, --rate datagrams/s of 53 unsigned PARAM_SETs (1 KiB) from the
             ground station's address (with --to-sink: to a socket that never reads, the A of
             an A/B pair), and a signed DISARM to Poise every 0.2 s from 1 s in: each one's
             time to its COMMAND_ACK (scripts/bench-gcs disarm)
  list_amplification  --count N datagrams each of as many signed PARAM_REQUEST_LISTs as fit in
             1 KiB (37; Poise's receive buffer); counts the PARAM_VALUEs that come back (the
             amplification: values per request sent)
"""
import argparse
import os
import socket
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gcs_peer import Station, mavlink2, arm, arm_until_accepted  # noqa: E402


class AttackStation(Station):
    """A Station that also notes the signing timestamps of what Poise sends (one frame a datagram)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.sent_timestamps = []
        self.quiet = False

    def take(self, datagram):
        if len(datagram) > 13 and datagram[0] == 0xFD and datagram[2] & 1:
            self.sent_timestamps.append(int.from_bytes(datagram[-12:-6], "little"))
        if self.quiet:
            # Only count: printing every PARAM_VALUE of a flood would be the test's bottleneck.
            for msg in self.mav.parse_buffer(datagram) or []:
                self.received.append({"type": msg.get_type(), "fields": {}})
            return
        super().take(datagram)

    def timestamps(self):
        t = self.sent_timestamps
        return {"first": t[0] if t else None, "last": t[-1] if t else None, "count": len(t),
                "never_back": all(b > a for a, b in zip(t, t[1:]))}


def signed_at(s, msg, timestamp):
    """`msg` signed with the key at the given signing timestamp (10 µs since 2015)."""
    s.mav.signing.secret_key = s.key
    s.mav.signing.link_id = 1
    s.mav.signing.sign_outgoing = True
    s.mav.signing.timestamp = timestamp
    return msg.pack(s.mav)


def now_stamp():
    return int((time.time() - 1420070400) * 100000)


def scenario_capture(s, args):
    s.pump(args.settle)
    result = arm_until_accepted(s, args.stream)
    s.emit(dict(finding="arm", **result))
    s.emit({"finding": "captured", "hex": s.last_sent.hex()})
    s.pump(0.5)
    s.emit({"finding": "disarm", "result": arm(s, 0)})
    s.pump(0.5)
    s.emit(dict(finding="sent_timestamps", **s.timestamps()))


def scenario_replay(s, args):
    s.pump(args.settle)
    s.raw(bytes.fromhex(args.frame))
    ack = s.wait_for("COMMAND_ACK", 2, lambda m: m["fields"]["command"] == 400)
    text = s.wait_for("STATUSTEXT", 1, lambda m: "command 400" in m["fields"]["text"])
    s.pump(1.0)
    armed = any(m["type"] == "HEARTBEAT" and m["fields"]["base_mode"] & 128 for m in s.received)
    s.emit({"finding": "replay", "result": ack and ack["fields"]["result"], "text": text and text["fields"]["text"],
            "armed_seen": armed})
    s.emit(dict(finding="sent_timestamps", **s.timestamps()))


def scenario_widen(s, args):
    s.pump(args.settle)
    s.emit(dict(finding="arm", **arm_until_accepted(s, args.stream)))
    s.pump(0.5)
    for name, value in [("SAFE_MAX_TILT", 180.0), ("SAFE_ARM_HOLD", 0.0), ("SAFE_ARM_TILT", 60.0), ("SAFE_MAX_TILT", 40.0)]:
        start = len(s.received)
        s.send(mavlink2.MAVLink_param_set_message(1, 1, name.encode(), value, 9))
        m = s.wait_for("PARAM_VALUE", 2, lambda m: m["fields"]["param_id"] == name)
        texts = [r["fields"]["text"] for r in s.received[start:] if r["type"] == "STATUSTEXT"]
        s.emit({"finding": f"{name}={value:g}", "value": m and m["fields"]["param_value"], "texts": texts})
    s.emit({"finding": "disarm", "result": arm(s, 0)})


def scenario_ahead(s, args):
    year = 365 * 24 * 3600 * 100000
    s.raw(signed_at(s, mavlink2.MAVLink_param_set_message(1, 1, b"BAL_PIT_P", 21.0, 9), now_stamp() + year))
    text = s.wait_for("STATUSTEXT", 2, lambda m: "BAL_PIT_P" in m["fields"]["text"])
    s.emit({"finding": "ahead", "text": text and text["fields"]["text"]})
    s.raw(signed_at(s, mavlink2.MAVLink_param_set_message(1, 1, b"BAL_PIT_P", 22.0, 9), now_stamp()))
    value = s.wait_for("PARAM_VALUE", 2, lambda m: m["fields"]["param_id"] == "BAL_PIT_P" and m["fields"]["param_value"] == 22.0)
    s.emit({"finding": "now", "value": value and value["fields"]["param_value"]})


def unsigned_junk(s):
    """1 KiB of unsigned PARAM_SETs of the unknown name "J" (19 bytes each: 53 a datagram)."""
    one = mavlink2.MAVLink_param_set_message(1, 1, b"J", 1.0, 0)
    s.mav.signing.sign_outgoing = False
    frame = one.pack(s.mav)
    s.junk_frame = len(frame)
    return frame * (1024 // len(frame))


def scenario_disarm_flood(s, args):
    s.pump(args.settle)
    junk = unsigned_junk(s)
    s.quiet = True
    s.sock.setblocking(False)
    period = 1.0 / args.rate
    start = time.monotonic()
    next_send = start
    sent = 0
    disarm_at = None
    tries = 0
    acked = None
    next_disarm = None
    while sent < args.count or (disarm_at is not None and acked is None and time.monotonic() - disarm_at < 10):
        now = time.monotonic()
        if sent < args.count and now >= next_send:
            s.raw(junk)
            sent += 1
            next_send += period
        if disarm_at is None and sent >= args.count // 2:
            disarm_at = now
            next_disarm = now
        if disarm_at is not None and acked is None and now >= next_disarm:
            s.send(mavlink2.MAVLink_command_long_message(1, 1, 400, 0, 0, 0, 0, 0, 0, 0, 0), signed=True)
            tries += 1
            next_disarm += 0.2
        try:
            datagram, _ = s.sock.recvfrom(65536)
            for msg in s.mav.parse_buffer(datagram) or []:
                if msg.get_type() == "COMMAND_ACK" and msg.command == 400 and acked is None:
                    acked = time.monotonic() - disarm_at
        except (BlockingIOError, TimeoutError, OSError):
            wait = next_send - time.monotonic() if sent < args.count else 0.001
            if wait > 0:
                time.sleep(min(wait, 0.001))
    s.emit({"finding": "disarm_flood", "sent": sent, "frames_per_datagram": len(junk) // s.junk_frame, "tries": tries,
            "acknowledged_after_s": acked, "flood_seconds": time.monotonic() - start})


def scenario_disarm_latency(s, args):
    s.pump(args.settle)
    junk = unsigned_junk(s)
    s.quiet = True
    s.sock.setblocking(False)
    sink = None
    if args.to_sink:
        sink = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        sink.bind(("127.0.0.1", 0))
        sink.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    target = sink.getsockname() if sink else s.peer
    start = time.monotonic()
    end = start + args.seconds
    next_send, next_disarm = start, start + 1.0
    sent, outstanding, latencies = 0, [], []
    while time.monotonic() < end:
        now = time.monotonic()
        while now >= next_send and sent < args.rate * args.seconds:
            try:
                s.sock.sendto(junk, target)
            except OSError:
                pass
            sent += 1
            next_send += 1.0 / args.rate
        if now >= next_disarm and now < end - 1.0:
            s.send(mavlink2.MAVLink_command_long_message(1, 1, 400, 0, 0, 0, 0, 0, 0, 0, 0), signed=True)
            outstanding.append(time.monotonic())
            next_disarm += 0.2
        try:
            while True:
                datagram, _ = s.sock.recvfrom(65536)
                for msg in s.mav.parse_buffer(datagram) or []:
                    if msg.get_type() == "COMMAND_ACK" and msg.command == 400 and outstanding:
                        latencies.append(time.monotonic() - outstanding.pop(0))
        except (BlockingIOError, OSError):
            pass
        wait = next_send - time.monotonic()
        if wait > 0:
            time.sleep(min(wait, 0.0005))
    s.sock.setblocking(True)
    s.sock.settimeout(0.05)
    s.pump(1.0)
    s.emit({"finding": "disarm_latency", "sent": sent, "to_sink": bool(sink), "frames_per_datagram": len(junk) // s.junk_frame,
            "disarms": len(latencies) + len(outstanding), "acknowledged": len(latencies), "latencies_s": latencies,
            "seconds": time.monotonic() - start})


def scenario_list_amplification(s, args):
    s.pump(args.settle)
    s.quiet = True
    before = len(s.received)
    requests = 0
    per = 1024 // len(signed_at(s, mavlink2.MAVLink_param_request_list_message(1, 1), now_stamp()))  # 37 fit in 1 KiB
    for _ in range(args.count):
        datagram = b"".join(signed_at(s, mavlink2.MAVLink_param_request_list_message(1, 1), now_stamp() + i)
                            for i in range(per))
        s.raw(datagram)
        requests += per
        s.pump(0.02)
    s.pump(2.0)
    values = sum(1 for m in s.received[before:] if m["type"] == "PARAM_VALUE")
    kinds = {}
    for m in s.received[before:]:
        kinds[m["type"]] = kinds.get(m["type"], 0) + 1
    s.emit({"finding": "list_amplification", "requests": requests, "param_values": values, "received": kinds,
            "values_per_request": values / requests})


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--scenario", required=True)
    parser.add_argument("--key", required=True)
    parser.add_argument("--frame", default=None)
    parser.add_argument("--settle", type=float, default=1.0)
    parser.add_argument("--stream", type=float, default=6.0)
    parser.add_argument("--count", type=int, default=300)
    parser.add_argument("--rate", type=float, default=1000.0)
    parser.add_argument("--wait", type=float, default=20.0)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--to-sink", action="store_true")
    args = parser.parse_args()
    s = AttackStation(0, 2.0, bytes.fromhex(args.key))
    s.emit({"listening": s.sock.getsockname()[1]})
    if s.wait_for("HEARTBEAT", args.wait) is None:
        s.emit({"finding": "no_heartbeat"})
        return 1
    globals()["scenario_" + args.scenario](s, args)
    s.emit({"finding": "done"})
    return 0


if __name__ == "__main__":
    sys.exit(main())
