#!/usr/bin/env python3
"""Runs one view_flood.py flood against a fresh poise-view and prints its cost, as one JSON line.

  view_flood_measure.py POISE_VIEW MODE [--nofile N]

MODE and its size are those of the measurements in docs/telemetry.md (headers, slow, churn,
names, descriptors). poise-view runs on free loopback ports (under `ulimit -n N` with
--nofile), relaying its snapshots to a UDP socket here, which counts them. CPU is utime +
stime from /proc/PID/stat, memory VmRSS and VmHWM from /proc/PID/status: before the flood,
at its end and 10 s later. Standard library only; bounded by the flood's own limits.
"""
import json, os, re, resource, socket, subprocess, sys, threading, time

FLOODS = {
    "headers": ["--connections", "6", "--kib", "1024", "--seconds", "30"],
    "slow": ["--connections", "3000", "--seconds", "40"],
    "churn": ["--clients", "200", "--rounds", "30"],
    "names": ["--names", "100000", "--snapshots", "500"],
    "descriptors": ["--connections", "400", "--seconds", "5"],
}

view_path, mode = sys.argv[1], sys.argv[2]
nofile = int(sys.argv[sys.argv.index("--nofile") + 1]) if "--nofile" in sys.argv else None
flood = os.path.join(os.path.dirname(os.path.abspath(__file__)), "view_flood.py")

relay = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
relay.bind(("127.0.0.1", 0))
relay.settimeout(0.5)
limit = (lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))) if nofile else None
view = subprocess.Popen([view_path, "--port", "0", "--udp-port", "0", "--plotjuggler", "127.0.0.1:%d" % relay.getsockname()[1]],
                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, preexec_fn=limit)
banner = view.stdout.readline().decode()
page, udp = (int(p) for p in re.search(r":(\d+)/ \(MAVLink on UDP [\d.]+:(\d+)\)", banner).groups())

def cost():
    fields = open("/proc/%d/stat" % view.pid).read().rsplit(")", 1)[1].split()
    status = dict(line.split(":", 1) for line in open("/proc/%d/status" % view.pid).read().splitlines())
    mib = lambda key: round(int(status[key].split()[0]) / 1024, 1)
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK"), mib("VmRSS"), mib("VmHWM")

sizes, stop = [], threading.Event()
def count():
    while not stop.is_set():
        try:
            sizes.append(len(relay.recv(1 << 21)))
        except socket.timeout:
            pass
threading.Thread(target=count, daemon=True).start()

time.sleep(1)
cpu0, rss0, _ = cost()
start = time.time()
target = ["--udp", str(udp)] if mode == "names" else ["--port", str(page)]
out = subprocess.run([sys.executable, flood, mode] + target + FLOODS[mode], capture_output=True, text=True)
cpu1, rss1, peak = cost()
seconds = time.time() - start
time.sleep(10)
cpu2, rss2, _ = cost()
try:
    client = socket.create_connection(("127.0.0.1", page), timeout=5)
    client.send(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    answer = client.recv(100).split(b"\r\n")[0].decode()
except OSError as error:
    answer = "GET / failed: %s" % error
stop.set()
print(json.dumps({
    "mode": mode, "flood": out.stdout.strip(), "flood_seconds": round(seconds, 1),
    "cpu_during": round(cpu1 - cpu0, 2), "cpu_with_10s_after": round(cpu2 - cpu0, 2),
    "rss_before": rss0, "rss_end": rss1, "rss_peak": peak, "rss_10s_later": rss2,
    "running": view.poll() is None, "get": answer, "snapshots": len(sizes), "largest_snapshot": max(sizes, default=0)}))
view.kill()
view.wait()
