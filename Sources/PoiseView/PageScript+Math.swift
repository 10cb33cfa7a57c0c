import PoiseMath
// The first half of /app.js: 4×4 matrices (column-major, as OpenGL), vectors, quaternions
// and the MAVLink-to-display frame conversions, hand-written (no libraries).
extension PageAssets {
    static let scriptMath = #"""
// Poise view: draws MAVLink-derived snapshots. Hand-written 4×4 matrix code, column-major as
// OpenGL stores it: element (row r, column c) is at index 4c + r.
"use strict";

const Mat4 = {
  identity() { return [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]; },
  multiply(a, b) {
    const m = new Array(16).fill(0);
    for (let c = 0; c < 4; c++) for (let r = 0; r < 4; r++) {
      let s = 0;
      for (let k = 0; k < 4; k++) s += a[4 * k + r] * b[4 * c + k];
      m[4 * c + r] = s;
    }
    return m;
  },
  // As GLKMatrix4MakePerspective: vertical field of view, aspect, near and far planes.
  perspective(fovy, aspect, near, far) {
    const f = 1 / Math.tan(fovy / 2);
    return [f / aspect, 0, 0, 0, 0, f, 0, 0, 0, 0, (far + near) / (near - far), -1, 0, 0, 2 * far * near / (near - far), 0];
  },
  // A camera at eye looking at target: rows are the camera axes, translation −(axes · eye).
  lookAt(eye, target, up) {
    const z = Vec3.normalize(Vec3.sub(eye, target));
    const x = Vec3.normalize(Vec3.cross(up, z));
    const y = Vec3.cross(z, x);
    return [x[0], y[0], z[0], 0, x[1], y[1], z[1], 0, x[2], y[2], z[2], 0,
      -Vec3.dot(x, eye), -Vec3.dot(y, eye), -Vec3.dot(z, eye), 1];
  },
  // [R | 0] from a rotation given as rows.
  fromRotation(R) {
    return [R[0][0], R[1][0], R[2][0], 0, R[0][1], R[1][1], R[2][1], 0, R[0][2], R[1][2], R[2][2], 0, 0, 0, 0, 1];
  },
  // The background document's Eq. VII: the inverse of (rotation R, then translation d along
  // the camera's z) is the rotation transposed and the translation negated: [Rᵀ | −d].
  // Column j of Rᵀ is row j of R.
  dieModelView(R, distance) {
    return [R[0][0], R[0][1], R[0][2], 0, R[1][0], R[1][1], R[1][2], 0, R[2][0], R[2][1], R[2][2], 0, 0, 0, -distance, 1];
  },
  apply(m, v) {
    const out = [0, 0, 0, 0];
    for (let r = 0; r < 4; r++) out[r] = m[r] * v[0] + m[4 + r] * v[1] + m[8 + r] * v[2] + m[12 + r] * (v.length > 3 ? v[3] : 1);
    return out;
  },
};

const Vec3 = {
  sub: (a, b) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]],
  dot: (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2],
  cross: (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]],
  normalize(a) { const n = Math.hypot(a[0], a[1], a[2]) || 1; return [a[0] / n, a[1] / n, a[2] / n]; },
};

// Quaternions: Hamilton, [w, x, y, z], body-to-world.
const Quat = {
  multiply(a, b) {
    return [a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
      a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
      a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1],
      a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0]];
  },
  conjugate: (q) => [q[0], -q[1], -q[2], -q[3]],
  normalize(q) { const n = Math.hypot(q[0], q[1], q[2], q[3]) || 1; return q.map((v) => v / n); },
  // Rotation matrix as rows.
  matrix(q) {
    const [w, x, y, z] = q;
    return [[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
      [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
      [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]];
  },
  // Core Motion's angles of R = Rz(yaw)·Rx(pitch)·Ry(roll): pitch about x, roll about y, yaw about z.
  coreMotionAngles(R) {
    return { pitch: Math.asin(Math.max(-1, Math.min(1, R[2][1]))), roll: Math.atan2(-R[2][0], R[2][2]), yaw: Math.atan2(-R[0][1], R[1][1]) };
  },
};

// MAVLink sends FRD body → NED. Poise's body is x right, y forward, z up: FRD = (y, x, −z), a
// half turn about (x + y)/√2, its own inverse. NED → display frame likewise.
const H = Math.SQRT1_2;
const FRD_FROM_BODY = [0, H, H, 0];
const FRAMES = {
  enu: { fromNED: [0, H, H, 0], up: [0, 0, 1], labels: ["E", "N", "U"], eye: [2, -3.2, 2.2] },
  nwu: { fromNED: [0, 1, 0, 0], up: [0, 0, 1], labels: ["N", "W", "U"], eye: [-3.2, -2, 2.2] },
  ned: { fromNED: [1, 0, 0, 0], up: [0, 0, -1], labels: ["N", "E", "D"], eye: [-3.2, 2, -2.2] },
};
// ---- Plot axes and labels: pure functions (no page state), tested with node.
// Ticks at a "nice" step (1, 2 or 5 × 10^k) covering [lo, hi] with at most `count` + 1 ticks;
// the axis widens to whole steps. Labels carry just enough decimals for the step.
function niceTicks(lo, hi, count) {
  if (!isFinite(lo) || !isFinite(hi)) { lo = 0; hi = 1; }
  if (hi - lo < 1e-9) { const pad = Math.max(1, Math.abs(lo) * 0.1); lo -= pad; hi += pad; }
  const raw = (hi - lo) / Math.max(1, count), power = Math.pow(10, Math.floor(Math.log10(raw)));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw * (1 - 1e-9));
  const first = Math.floor(lo / step + 1e-9), last = Math.ceil(hi / step - 1e-9);
  const decimals = Math.max(0, -Math.floor(Math.log10(step) + 1e-9));
  const ticks = [];
  for (let k = first; k <= last; k++) {
    const v = k * step;
    ticks.push({ value: v, label: (Math.abs(v) < step / 2 ? 0 : v).toFixed(decimals) });
  }
  return { lo: first * step, hi: last * step, step, ticks };
}
// How many output channels to draw: as many as are named, else every channel that has ever
// been non-zero (so an output going to its safe 0 keeps its line and legend).
function channelCount(names, servo, previous) {
  if (names && names.length) return names.length;
  let last = -1;
  (servo || []).forEach((v, k) => { if (v) last = k; });
  return Math.max(previous || 0, last + 1);
}
// Each channel's name and unit: "esc1 (µs)", "led (level)". The unit comes from the
// configuration when given; otherwise a channel that has only ever been 0 or 1 is a level.
function channelLabels(names, count, units) {
  return Array.from({ length: count }, (_, k) => {
    const name = (names && names[k]) || `ch ${k + 1}`, unit = units && units[k];
    return unit ? `${name} (${unit})` : name;
  });
}
function channelUnits(configured, history, count) {
  return Array.from({ length: count }, (_, k) => {
    if (configured && configured[k]) return configured[k];
    let seen = false, pulse = false;
    for (const e of history || []) { const v = e["s" + k]; if (v === undefined) continue; seen = true; if (v > 1) pulse = true; }
    return !seen ? "" : pulse ? "µs" : "level";
  });
}
// Age of a live snapshot by the server's clock: `received` is the server's wall time of the
// datagram; `skew` the browser's clock minus the server's, measured when the page loaded.
function snapshotAgeMs(received, browserNow, skew) {
  return received ? browserNow - skew - received : Infinity;
}

"""#
}
