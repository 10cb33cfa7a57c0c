#!/usr/bin/env python3
"""Runs VQF (Laidig & Seel, the `vqf` package from PyPI) online on a Poise trace, as a test peer.

    vqf_peer.py TRACE [--mag] [--estimates OUT.csv]

TRACE is a CSV trace with t, ax..az (m/s²), gx..gz (rad/s), optionally mx..mz and the truth
qw..qz (body-to-ENU, w first). VQF runs sample by sample (its online filter, default
parameters) at the trace's rate; with --mag it fuses the magnetometer (9D), else not (6D).
Prints one JSON line: the inclination and heading RMS errors in degrees by the metric of
`poise eval` (q_e = q_est ⊗ conj(q_ref); inclination 2·acos(√(w²+z²)), heading 2·atan(|z/w|)),
over the rows inside the trace's `# movement=a:b,…` ranges (every row when there are none),
6D with one constant heading offset removed like `poise eval --mag off`. --estimates writes
VQF's quaternions as t,qw,qx,qy,qz.
"""
import argparse
import json
import math
import sys

import numpy as np
from vqf import VQF


def read_trace(path):
    metadata, header, rows = {}, None, []
    with open(path, encoding="utf-8") as file:
        for line in file:
            line = line.strip()
            if not line:
                continue
            if line.startswith("#"):
                key, _, value = line[1:].strip().partition("=")
                metadata[key.strip()] = value.strip()
                continue
            if header is None:
                header = line.split(",")
                continue
            rows.append([float(x) if x else math.nan for x in line.split(",")])
    columns = {name: i for i, name in enumerate(header)}
    return metadata, columns, np.array(rows, dtype=float)


def movement_mask(metadata, count):
    ranges = metadata.get("movement", "")
    if not ranges:
        return np.ones(count, dtype=bool)
    mask = np.zeros(count, dtype=bool)
    for part in ranges.split(","):
        a, _, b = part.partition(":")
        mask[int(a):int(b)] = True
    return mask


def quaternion_product(p, q):
    w1, x1, y1, z1 = p.T
    w2, x2, y2, z2 = q.T
    return np.stack([w1 * w2 - x1 * x2 - y1 * y2 - z1 * z2,
                     w1 * x2 + x1 * w2 + y1 * z2 - z1 * y2,
                     w1 * y2 - x1 * z2 + y1 * w2 + z1 * x2,
                     w1 * z2 + x1 * y2 - y1 * x2 + z1 * w2], axis=1)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trace")
    parser.add_argument("--mag", action="store_true", help="fuse the magnetometer (9D)")
    parser.add_argument("--estimates", help="write VQF's quaternions to this CSV")
    arguments = parser.parse_args()

    metadata, columns, data = read_trace(arguments.trace)
    t = data[:, columns["t"]]
    gyr = np.ascontiguousarray(data[:, [columns[c] for c in ("gx", "gy", "gz")]])
    acc = np.ascontiguousarray(data[:, [columns[c] for c in ("ax", "ay", "az")]])
    rate = float(metadata["rate_hz"]) if "rate_hz" in metadata else 1 / float(np.median(np.diff(t)))
    vqf = VQF(1.0 / rate)
    if arguments.mag:
        mag = np.ascontiguousarray(data[:, [columns[c] for c in ("mx", "my", "mz")]])
        estimate = vqf.updateBatch(gyr, acc, mag)["quat9D"]
    else:
        estimate = vqf.updateBatch(gyr, acc)["quat6D"]

    if arguments.estimates:
        with open(arguments.estimates, "w", encoding="utf-8") as out:
            out.write("t,qw,qx,qy,qz\n")
            for time, q in zip(t, estimate):
                out.write(f"{float(time)!r},{float(q[0])!r},{float(q[1])!r},{float(q[2])!r},{float(q[3])!r}\n")

    if "qw" not in columns:
        print(json.dumps({"rows": 0}))
        return
    truth = data[:, [columns[c] for c in ("qw", "qx", "qy", "qz")]]
    mask = movement_mask(metadata, len(t)) & np.all(np.isfinite(truth), axis=1)
    conjugate = truth * np.array([1, -1, -1, -1])
    error = quaternion_product(estimate, conjugate)[mask]
    # Normalised, as `poise eval` does: the trace's truth is written to Float precision, and
    # a norm 1e-8 off unity shifts w² + z² by as much as a 0.01° error does.
    error /= np.linalg.norm(error, axis=1, keepdims=True)
    error *= np.where(error[:, :1] < 0, -1, 1)
    w, z = error[:, 0], error[:, 3]
    inclination = 2 * np.degrees(np.arccos(np.clip(np.sqrt(w * w + z * z), 0, 1)))
    heading = 2 * np.degrees(np.arctan2(z, w))
    heading = (heading + 180) % 360 - 180
    if not arguments.mag:
        # One constant heading offset per trace, as `poise eval` removes in 6D.
        offset = math.degrees(math.atan2(np.mean(np.sin(np.radians(heading))),
                                         np.mean(np.cos(np.radians(heading)))))
        heading = (heading - offset + 180) % 360 - 180
    result = {
        "rows": int(mask.sum()),
        "inclination_rms": float(np.sqrt(np.mean(inclination ** 2))),
        "heading_rms": float(np.sqrt(np.mean(heading ** 2))),
    }
    print(json.dumps(result))


if __name__ == "__main__":
    sys.exit(main())
