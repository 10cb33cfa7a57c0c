#!/usr/bin/env python3
"""The whole ground-station flow against `poise run` on the simulated balancing robot, as a
user at QGroundControl would go through it: list the parameters, change a gain, arm, drive
forward then back with MANUAL_CONTROL, disarm. pymavlink is the peer (gcs_peer.Station).

Paced by what Poise sends, not by the wall clock: one MANUAL_CONTROL per ATTITUDE received
(Poise sends ATTITUDE at telemetry.attitude_hz on its loop's schedule), so each phase lasts
a number of Poise's ticks. The wall clock only bounds how long to wait for an answer.

Prints {"listening": PORT} first, then every message and one JSON object per finding.
"""
import argparse
import os
import socket
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gcs_peer import Station, arm, arm_until_accepted, mavlink2  # noqa: E402


def next_attitude(s, seconds):
    """Receives until Poise's next ATTITUDE (each datagram kept and printed by Station.take); False
    when none came within `seconds`."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        start = len(s.received)
        try:
            datagram, s.peer = s.sock.recvfrom(65536)
        except socket.timeout:
            continue
        s.take(datagram)
        if any(m["type"] == "ATTITUDE" for m in s.received[start:]):
            return True
    return False


def attitudes(s, count, each=lambda: None):
    """Waits for `count` ATTITUDE messages from Poise, calling `each` after every one."""
    for _ in range(count):
        if not next_attitude(s, 2.0):
            return False
        each()
    return True


def list_parameters(s):
    s.send(mavlink2.MAVLink_param_request_list_message(1, 1))
    values, indexes, count = {}, set(), None
    start = len(s.received)
    # Every PARAM_VALUE of the list, or a quiet second after the last one.
    while count is None or len(indexes) < count:
        if s.wait_for("PARAM_VALUE", 1.0) is None:
            break
        for r in s.received[start:]:
            if r["type"] == "PARAM_VALUE":
                f = r["fields"]
                values[f["param_id"]] = f["param_value"]
                indexes.add(f["param_index"])
                count = f["param_count"]
        start = len(s.received)
    return {"count": count, "indexes": len(indexes), "names": len(values), "pit_p": values.get("BAL_PIT_P")}


def drive(s, x, count):
    """One MANUAL_CONTROL (x forward, throttle centred) per ATTITUDE, for `count` of them."""
    send = lambda: s.send(mavlink2.MAVLink_manual_control_message(1, x, 0, 500, 0, 0))
    return attitudes(s, count, send)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--gain", type=float, default=33.0, help="the new BAL_PIT_P")
    parser.add_argument("--stick", type=int, default=600, help="forward stick, of ±1000")
    parser.add_argument("--phase", type=int, default=150, help="ATTITUDE messages each drive phase lasts")
    parser.add_argument("--wait", type=float, default=30.0)
    args = parser.parse_args()
    s = Station(0, 2.0)
    s.emit({"listening": s.sock.getsockname()[1]})
    if s.wait_for("HEARTBEAT", args.wait) is None:
        s.emit({"finding": "no_heartbeat"})
        return 1
    s.emit(dict(finding="list", **list_parameters(s)))
    s.send(mavlink2.MAVLink_param_set_message(1, 1, b"BAL_PIT_P", args.gain, 9))
    m = s.wait_for("PARAM_VALUE", 2, lambda m: m["fields"]["param_id"] == "BAL_PIT_P")
    s.emit({"finding": "set", "value": m and m["fields"]["param_value"]})
    s.send(mavlink2.MAVLink_param_request_read_message(1, 1, b"BAL_PIT_P", -1))
    m = s.wait_for("PARAM_VALUE", 2, lambda m: m["fields"]["param_id"] == "BAL_PIT_P")
    s.emit({"finding": "read_back", "value": m and m["fields"]["param_value"]})
    s.emit(dict(finding="arm", **arm_until_accepted(s, 10)))
    m = s.wait_for("HEARTBEAT", 3, lambda m: m["fields"]["base_mode"] & 128)
    s.emit({"finding": "armed_heartbeat", "base_mode": m and m["fields"]["base_mode"]})
    # Standing first: arming releases the robot from its stand, and it catches itself.
    s.emit({"finding": "stand", "paced": drive(s, 0, args.phase)})
    s.emit({"finding": "forward", "paced": drive(s, args.stick, args.phase)})
    s.emit({"finding": "backward", "paced": drive(s, -args.stick, args.phase)})
    s.emit({"finding": "stop", "paced": drive(s, 0, args.phase // 2)})
    s.emit({"finding": "disarm", "result": arm(s, 0)})
    m = s.wait_for("HEARTBEAT", 3, lambda m: not m["fields"]["base_mode"] & 128)
    s.emit({"finding": "disarmed_heartbeat", "base_mode": m and m["fields"]["base_mode"]})
    s.emit({"finding": "done"})
    return 0


if __name__ == "__main__":
    sys.exit(main())
