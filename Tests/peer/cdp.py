#!/usr/bin/env python3
"""Drives headless Chromium through the DevTools protocol, in real time (Python stdlib only).

Opens URL, waits until the JavaScript expression --wait-for is true, optionally waits --settle
seconds more, prints the JSON value of --eval, and saves a screenshot if asked. Exit status 2
when --wait-for never became true within --timeout seconds.
"""
import argparse
import base64
import json
import os
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import time
import urllib.request
from urllib.parse import urlparse


class DevTools:
    """A minimal WebSocket client (RFC 6455, client frames masked) for one DevTools target."""

    def __init__(self, url):
        u = urlparse(url)
        self.sock = socket.create_connection((u.hostname, u.port), timeout=30)
        key = base64.b64encode(os.urandom(16)).decode()
        request = (f"GET {u.path} HTTP/1.1\r\nHost: {u.hostname}:{u.port}\r\nUpgrade: websocket\r\n"
                   f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n")
        self.sock.sendall(request.encode())
        response = b""
        while b"\r\n\r\n" not in response:
            response += self.sock.recv(1)
        if b" 101 " not in response.split(b"\r\n")[0]:
            raise RuntimeError(response.decode(errors="replace"))
        self.next_id = 0

    def _read(self, n):
        data = b""
        while len(data) < n:
            chunk = self.sock.recv(n - len(data))
            if not chunk:
                raise ConnectionError("DevTools closed the connection")
            data += chunk
        return data

    def _send(self, text):
        payload = text.encode()
        mask = os.urandom(4)
        header = bytes([0x81])
        n = len(payload)
        if n < 126:
            header += bytes([0x80 | n])
        elif n < 65536:
            header += bytes([0x80 | 126]) + struct.pack(">H", n)
        else:
            header += bytes([0x80 | 127]) + struct.pack(">Q", n)
        self.sock.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))

    def _receive(self):
        message = b""
        while True:
            first, second = self._read(2)
            n = second & 0x7F
            if n == 126:
                n = struct.unpack(">H", self._read(2))[0]
            elif n == 127:
                n = struct.unpack(">Q", self._read(8))[0]
            message += self._read(n)
            if first & 0x80:
                return json.loads(message)

    def call(self, method, **params):
        self.next_id += 1
        self._send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            reply = self._receive()
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(reply["error"])
                return reply["result"]

    def evaluate(self, expression):
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        return result.get("result", {}).get("value")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--chromium", default="chromium")
    parser.add_argument("--url", required=True)
    parser.add_argument("--wait-for", default="true")
    parser.add_argument("--settle", type=float, default=0)
    parser.add_argument("--eval", default="null")
    parser.add_argument("--screenshot")
    parser.add_argument("--timeout", type=float, default=30)
    parser.add_argument("--size", default="1280,1150")
    args = parser.parse_args()

    profile = tempfile.mkdtemp(prefix="poise-chromium-")
    browser = subprocess.Popen(
        [args.chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--mute-audio",
         "--no-first-run", f"--window-size={args.size}", "--remote-debugging-port=0",
         f"--user-data-dir={profile}", args.url],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + args.timeout
        port_file = os.path.join(profile, "DevToolsActivePort")
        while not os.path.exists(port_file) or not open(port_file).read().strip():
            if time.monotonic() > deadline:
                raise TimeoutError("Chromium did not open its DevTools port")
            time.sleep(0.05)
        port = int(open(port_file).read().split()[0])
        targets = []
        while not any(t.get("type") == "page" for t in targets):
            targets = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list"))
            time.sleep(0.05)
        page = next(t for t in targets if t.get("type") == "page")
        tools = DevTools(page["webSocketDebuggerUrl"])
        while not tools.evaluate(f"Boolean({args.wait_for})"):
            if time.monotonic() > deadline:
                print(json.dumps(tools.evaluate(args.eval)))
                return 2
            time.sleep(0.1)
        time.sleep(args.settle)
        print(json.dumps(tools.evaluate(args.eval)), flush=True)
        if args.screenshot:
            shot = tools.call("Page.captureScreenshot", format="png")
            with open(args.screenshot, "wb") as f:
                f.write(base64.b64decode(shot["data"]))
        return 0
    finally:
        os.killpg(browser.pid, 9)
        browser.wait()
        shutil.rmtree(profile, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
