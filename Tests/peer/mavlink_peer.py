#!/usr/bin/env python3
"""A real MAVLink 2 peer for Poise's tests: pymavlink (dialect common) on a loopback UDP port.

Prints {"listening": PORT} first, then one JSON object per datagram-decoded message:
{"type": "ATTITUDE", "id": 30, "seq": 4, "sysid": 1, "compid": 1, "crc_ok": true, "fields": {...}}
Frames pymavlink rejects (bad CRC, unknown id, garbage) print as {"type": "BAD_DATA", ...}.
Exits after --idle seconds without a datagram, or after --count messages.
"""
import argparse
import json
import math
import os
import socket
import sys

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


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--idle", type=float, default=2.0)
    parser.add_argument("--count", type=int, default=0)
    args = parser.parse_args()

    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    # A big receive buffer: a fast replay sends thousands of datagrams a second.
    for option in (getattr(socket, "SO_RCVBUFFORCE", None), socket.SO_RCVBUF):
        try:
            if option is not None:
                sock.setsockopt(socket.SOL_SOCKET, option, 16 * 1024 * 1024)
                break
        except OSError:
            continue
    sock.bind(("127.0.0.1", args.port))
    sock.settimeout(args.idle)
    print(json.dumps({"listening": sock.getsockname()[1]}), flush=True)

    # robust_parsing: bad frames come back as MAVLink_bad_data instead of raising.
    mav = mavlink2.MAVLink(None, srcSystem=255, srcComponent=190)
    mav.robust_parsing = True
    seen = 0
    while args.count == 0 or seen < args.count:
        try:
            datagram, _ = sock.recvfrom(65536)
        except socket.timeout:
            break
        for msg in mav.parse_buffer(datagram) or []:
            kind = msg.get_type()
            out = {"type": kind, "id": msg.get_msgId(), "seq": msg.get_seq(), "sysid": msg.get_srcSystem(),
                   "compid": msg.get_srcComponent(), "crc_ok": kind != "BAD_DATA",
                   "mavlink2": kind != "BAD_DATA" and msg.get_msgbuf()[0] == 0xFD}
            if kind == "BAD_DATA":
                out["reason"] = getattr(msg, "reason", "")
            else:
                out["fields"] = {k: jsonable(v) for k, v in msg.to_dict().items() if k != "mavpackettype"}
            print(json.dumps(out), flush=True)
            seen += 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
