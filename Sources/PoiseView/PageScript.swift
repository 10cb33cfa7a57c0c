// The second half of /app.js: state, canvas 2D drawing of both 3D views, horizon, plots and
// status, the WebSocket and the trace player (see docs/telemetry.md).
extension PageAssets {
    /// The whole script the page loads.
    static var script: String { scriptMath + scriptPage }

    static let scriptPage = #"""
const state = {
  mode: "live", snapshot: null, fresh: false, frame: "enu", reference: null,
  trace: [], traceTime: 0, playing: true, lastWall: performance.now(),
  history: [], lastReceive: 0, snapshotsReceived: 0, rxTimes: [],
  latencies: [], ages: [], fps: 0, lastDraw: 0, frameCount: 0, fpsSince: performance.now(), socketOpen: false,
  channelNames: [], channelUnits: [], channelCount: 0, clockSkew: 0, plotTicks: {}, plotSteps: {}, plotBreaks: {},
  historyReceived: 0,
};
window.poiseModelView = null;

function bodyAttitude(snapshot) {
  const q = Quat.normalize(snapshot.q);
  const inNED = Quat.multiply(q, FRD_FROM_BODY);
  const inFrame = Quat.multiply(FRAMES[state.frame].fromNED, inNED);
  // Core Motion's relative attitude: multiply by the inverse of the saved reference.
  return state.reference ? Quat.multiply(Quat.conjugate(state.reference), inFrame) : inFrame;
}

// ---- 3D scenes, drawn with canvas 2D: project, sort faces far to near, fill.
function cube(size) {
  const s = size / 2, v = [];
  for (const x of [-s, s]) for (const y of [-s, s]) for (const z of [-s, s]) v.push([x, y, z]);
  return v;
}
const CUBE_FACES = [ // vertex indices of each face, its outward normal and die value
  { i: [4, 5, 7, 6], n: [1, 0, 0], value: 2 }, { i: [0, 2, 3, 1], n: [-1, 0, 0], value: 5 },
  { i: [2, 6, 7, 3], n: [0, 1, 0], value: 3 }, { i: [0, 1, 5, 4], n: [0, -1, 0], value: 4 },
  { i: [1, 3, 7, 5], n: [0, 0, 1], value: 1 }, { i: [0, 4, 6, 2], n: [0, 0, -1], value: 6 },
];
const DIE_COLORS = { 1: "#d64545", 2: "#e08b2d", 3: "#d9c93b", 4: "#3fa55b", 5: "#3f7fd0", 6: "#8a55c8" };
const PIPS = { 1: [[0, 0]], 2: [[-1, -1], [1, 1]], 3: [[-1, -1], [0, 0], [1, 1]], 4: [[-1, -1], [1, -1], [-1, 1], [1, 1]],
  5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]], 6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]] };

function box(sx, sy, sz) { return cube(1).map((p) => [p[0] * sx, p[1] * sy, p[2] * sz]); }

function project(P, MV, p, w, h) {
  const eye = Mat4.apply(MV, p);
  const clip = Mat4.apply(P, eye);
  return { x: (clip[0] / clip[3] + 1) / 2 * w, y: (1 - clip[1] / clip[3]) / 2 * h, z: eye[2], behind: eye[2] > -0.05 };
}

function drawSolid(ctx, P, MV, vertices, faces, w, h, pips) {
  const list = [];
  for (const f of faces) {
    const pts = f.i.map((k) => project(P, MV, vertices[k], w, h));
    if (pts.some((p) => p.behind)) continue;
    list.push({ f, pts, z: pts.reduce((s, p) => s + p.z, 0) / pts.length });
  }
  list.sort((a, b) => a.z - b.z);
  for (const { f, pts } of list) {
    ctx.beginPath();
    pts.forEach((p, k) => (k ? ctx.lineTo(p.x, p.y) : ctx.moveTo(p.x, p.y)));
    ctx.closePath();
    ctx.fillStyle = f.color || DIE_COLORS[f.value];
    ctx.fill();
    ctx.strokeStyle = "#0b0d10";
    ctx.stroke();
    if (pips && f.value) drawPips(ctx, P, MV, f, vertices, w, h);
  }
}

function drawPips(ctx, P, MV, f, vertices, w, h) {
  // Pip grid on the face: two in-plane axes from its corners.
  const [a, b, , d] = f.i.map((k) => vertices[k]);
  const c0 = f.i.map((k) => vertices[k]).reduce((s, v) => [s[0] + v[0] / 4, s[1] + v[1] / 4, s[2] + v[2] / 4], [0, 0, 0]);
  const u = Vec3.sub(b, a).map((x) => x * 0.27), v = Vec3.sub(d, a).map((x) => x * 0.27);
  ctx.fillStyle = "#f5f5f5";
  for (const [i, j] of PIPS[f.value]) {
    const p = project(P, MV, [c0[0] + u[0] * i + v[0] * j, c0[1] + u[1] * i + v[1] * j, c0[2] + u[2] * i + v[2] * j], w, h);
    const r = Math.max(1.5, 30 / Math.max(0.5, -p.z));
    ctx.beginPath(); ctx.arc(p.x, p.y, r, 0, 2 * Math.PI); ctx.fill();
  }
}

function drawAxes(ctx, P, MV, length, labels, w, h, width) {
  const o = project(P, MV, [0, 0, 0], w, h);
  const colors = ["#ff5555", "#55dd55", "#5599ff"];
  for (let k = 0; k < 3; k++) {
    const tip = [0, 0, 0]; tip[k] = length;
    const p = project(P, MV, tip, w, h);
    if (o.behind || p.behind) continue;
    ctx.strokeStyle = colors[k]; ctx.lineWidth = width;
    ctx.beginPath(); ctx.moveTo(o.x, o.y); ctx.lineTo(p.x, p.y); ctx.stroke();
    ctx.fillStyle = colors[k]; ctx.font = "bold 13px sans-serif"; ctx.fillText(labels[k], p.x + 3, p.y - 3);
  }
  ctx.lineWidth = 1;
}

const BOARD = box(1.6, 2.4, 0.12);
const BOARD_FACES = CUBE_FACES.map((f) => ({ i: f.i, n: f.n, color: f.n[2] > 0 ? "#2e8b57" : f.n[2] < 0 ? "#1c4d33" : "#23633f" }));
const CHIP = box(0.45, 0.45, 0.08).map((p) => [p[0], p[1] + 0.5, p[2] + 0.1]);
const CHIP_FACES = CUBE_FACES.map((f) => ({ i: f.i, n: f.n, color: "#22262b" }));
const ARROW = [[0, 1.15, 0.07], [-0.3, 0.7, 0.07], [0.3, 0.7, 0.07]];

function drawBoardView(R) {
  const canvas = document.getElementById("boardView"), ctx = canvas.getContext("2d");
  const w = canvas.width, h = canvas.height, frame = FRAMES[state.frame];
  ctx.clearRect(0, 0, w, h);
  const P = Mat4.perspective(Math.PI / 3, w / h, 0.1, 100);
  const V = Mat4.lookAt(frame.eye, [0, 0, 0], frame.up);
  const MV = Mat4.multiply(V, Mat4.fromRotation(R));
  window.poiseBoardModelView = MV;
  drawAxes(ctx, P, V, 2.2, frame.labels, w, h, 1);
  drawSolid(ctx, P, MV, BOARD, BOARD_FACES, w, h, false);
  drawSolid(ctx, P, MV, CHIP, CHIP_FACES, w, h, false);
  const a = ARROW.map((p) => project(P, MV, p, w, h));
  ctx.fillStyle = "#f0f0f0"; ctx.beginPath(); a.forEach((p, k) => (k ? ctx.lineTo(p.x, p.y) : ctx.moveTo(p.x, p.y))); ctx.fill();
  drawAxes(ctx, P, MV, 1.5, ["x", "y", "z"], w, h, 3);
}

function drawDieView(R) {
  const canvas = document.getElementById("dieView"), ctx = canvas.getContext("2d");
  const w = canvas.width, h = canvas.height;
  ctx.clearRect(0, 0, w, h);
  const P = Mat4.perspective(Math.PI / 3, w / h, 0.1, 100);
  const MV = Mat4.dieModelView(R, 4);
  window.poiseModelView = MV;
  window.poiseProjection = P;
  drawAxes(ctx, P, MV, 1.6, FRAMES[state.frame].labels, w, h, 2);
  drawSolid(ctx, P, MV, cube(1), CUBE_FACES, w, h, true);
}

// ---- Horizon and heading, from MAVLink's aircraft angles (absolute, not the reference).
function drawHorizon(s) {
  const canvas = document.getElementById("horizon"), ctx = canvas.getContext("2d");
  const w = canvas.width, h = canvas.height, cx = w / 2, cy = h * 0.42, r = h * 0.36;
  ctx.clearRect(0, 0, w, h);
  const [roll, pitch, yaw] = s ? s.euler : [0, 0, 0];
  const pxPerRad = r / (Math.PI / 4);
  ctx.save();
  ctx.beginPath(); ctx.arc(cx, cy, r, 0, 2 * Math.PI); ctx.clip();
  ctx.translate(cx, cy); ctx.rotate(-roll); ctx.translate(0, pitch * pxPerRad);
  ctx.fillStyle = "#3b78c2"; ctx.fillRect(-2 * r, -4 * r, 4 * r, 4 * r);
  ctx.fillStyle = "#7a5530"; ctx.fillRect(-2 * r, 0, 4 * r, 4 * r);
  ctx.strokeStyle = "#fff"; ctx.fillStyle = "#fff"; ctx.font = "10px sans-serif";
  for (let deg = -60; deg <= 60; deg += 10) {
    const y = -deg * Math.PI / 180 * pxPerRad, half = deg === 0 ? 2 * r : deg % 20 ? 12 : 24;
    ctx.beginPath(); ctx.moveTo(-half, y); ctx.lineTo(half, y); ctx.stroke();
    if (deg && deg % 20 === 0) ctx.fillText(String(deg), half + 3, y + 3);
  }
  ctx.restore();
  ctx.strokeStyle = "#ffd23f"; ctx.lineWidth = 3;
  ctx.beginPath(); ctx.moveTo(cx - 50, cy); ctx.lineTo(cx - 15, cy); ctx.lineTo(cx, cy + 10); ctx.lineTo(cx + 15, cy); ctx.lineTo(cx + 50, cy); ctx.stroke();
  ctx.lineWidth = 1;
  // Heading tape: clockwise from north, as MAVLink's yaw.
  const heading = ((yaw * 180 / Math.PI) % 360 + 360) % 360, ty = h * 0.88, pxPerDeg = 3;
  ctx.fillStyle = "#0b0d10"; ctx.fillRect(0, ty - 16, w, 32);
  ctx.fillStyle = "#dde3ea"; ctx.strokeStyle = "#dde3ea"; ctx.font = "11px sans-serif"; ctx.textAlign = "center";
  for (let d = Math.floor(heading - 80); d <= heading + 80; d++) {
    if (d % 10) continue;
    const x = cx + (d - heading) * pxPerDeg, dd = ((d % 360) + 360) % 360;
    ctx.beginPath(); ctx.moveTo(x, ty - 16); ctx.lineTo(x, ty - (dd % 30 ? 10 : 6)); ctx.stroke();
    if (dd % 30 === 0) ctx.fillText({ 0: "N", 90: "E", 180: "S", 270: "W" }[dd] || String(dd), x, ty + 10);
  }
  ctx.strokeStyle = "#ffd23f"; ctx.beginPath(); ctx.moveTo(cx, ty - 16); ctx.lineTo(cx, ty + 16); ctx.stroke();
  ctx.textAlign = "left"; ctx.fillStyle = "#dde3ea"; ctx.font = "12px sans-serif";
  const deg = (v) => (v * 180 / Math.PI).toFixed(1);
  ctx.fillText(`roll ${deg(roll)}°  pitch ${deg(pitch)}°  heading ${heading.toFixed(1)}° (MAVLink NED)`, 8, 16);
  // The horizon is always absolute: say so while the other views are relative to a reference.
  if (state.reference) { ctx.fillStyle = "#ffd23f"; ctx.fillText("absolute: the reference does not apply here", 8, 32); }
}

// ---- Scrolling plots over the last 10 s of sensor time.
const WINDOW = 10;
// `wrap`: the span (360°) of a series that wraps (angles at ±180°): a step of more than half
// of it is the wrap, not motion, so the line is broken there instead of drawn across the plot.
function drawPlot(id, series, colors, names, fixedRange, emptyText, wrap) {
  const canvas = document.getElementById(id), ctx = canvas.getContext("2d");
  const w = canvas.width, h = canvas.height, pad = 40;
  ctx.clearRect(0, 0, w, h);
  const hist = state.history;
  ctx.fillStyle = "#8893a0"; ctx.font = "10px sans-serif";
  if (!series.length && emptyText) { ctx.fillText(emptyText, pad, h / 2); }
  if (!hist.length || !series.length) { state.plotTicks[id] = []; state.plotSteps[id] = 0; state.plotBreaks[id] = 0; return; }
  const tEnd = hist[hist.length - 1].time, tStart = tEnd - WINDOW;
  let lo = Infinity, hi = -Infinity;
  for (const e of hist) for (const k of series) { const v = e[k]; if (v !== undefined && isFinite(v)) { lo = Math.min(lo, v); hi = Math.max(hi, v); } }
  if (fixedRange) { lo = Math.min(lo, fixedRange[0]); hi = Math.max(hi, fixedRange[1]); }
  const axis = niceTicks(lo, hi, 4);
  state.plotTicks[id] = axis.ticks.map((t) => t.label);
  const X = (t) => pad + (t - tStart) / WINDOW * (w - pad - 4), Y = (v) => h - 14 - (v - axis.lo) / (axis.hi - axis.lo) * (h - 28);
  ctx.strokeStyle = "#2a313b";
  for (const t of axis.ticks) { const y = Y(t.value); ctx.beginPath(); ctx.moveTo(pad, y); ctx.lineTo(w, y); ctx.stroke(); ctx.fillText(t.label, 2, y + 3); }
  ctx.fillText(`${tStart.toFixed(1)} s`, pad, h - 2); ctx.fillText(`${tEnd.toFixed(1)} s`, w - 40, h - 2);
  let legendX = pad + 8, widestStep = 0, breaks = 0;
  series.forEach((k, n) => {
    ctx.strokeStyle = colors[n % colors.length]; ctx.beginPath();
    let previous;
    for (const e of hist) {
      const v = e[k]; if (v === undefined || !isFinite(v)) continue;
      const x = X(e.time), y = Y(v);
      const wraps = wrap && previous !== undefined && Math.abs(v - previous) > wrap / 2;
      if (previous !== undefined && !wraps) { ctx.lineTo(x, y); widestStep = Math.max(widestStep, Math.abs(v - previous)); }
      else { ctx.moveTo(x, y); if (wraps) breaks++; }
      previous = v;
    }
    ctx.stroke();
    // The legend is drawn for every series, data or not, each after the previous one's width.
    ctx.fillStyle = colors[n % colors.length]; ctx.fillText(names[n], legendX, 10);
    legendX += ctx.measureText(names[n]).width + 14;
  });
  // For tests: the largest step drawn as a line, and the breaks made at a wrap.
  state.plotSteps[id] = widestStep; state.plotBreaks[id] = breaks;
}

function record(snapshot, attitude) {
  const last = state.history[state.history.length - 1];
  if (last && snapshot.time < last.time) { state.history = []; state.ages = []; }
  if (last && snapshot.time === last.time) return;
  const a = Quat.coreMotionAngles(Quat.matrix(attitude)), d = 180 / Math.PI;
  const e = { time: snapshot.time, pitch: a.pitch * d, roll: a.roll * d, yaw: a.yaw * d };
  (snapshot.servo || []).forEach((v, k) => { if (k < state.channelCount) e["s" + k] = v; });
  state.history.push(e);
  while (state.history.length && state.history[0].time < snapshot.time - WINDOW) state.history.shift();
}

// In trace mode the plots show the trace itself over the 10 s up to the slider.
function traceHistory() {
  state.history = [];
  const t = state.traceTime, list = state.trace;
  let k = list.indexOf(traceSnapshot(Math.max(0, t - WINDOW)));
  for (; k >= 0 && k < list.length && list[k].time <= t; k++) record(list[k], bodyAttitude(list[k]));
}

// ---- Status table.
const FLAG_NAMES = ["initialising", "acceleration rejected", "magnetic disturbance", "at rest", "input rejected", "magnetometer used"];
const SENSORS = [[1, "gyroscope"], [2, "accelerometer"], [4, "magnetometer"], [0x200000, "attitude (AHRS)"]];
function row(name, value, cls) { return `<tr><td>${name}</td><td class="v ${cls || ""}">${value}</td></tr>`; }
function median(list) { if (!list.length) return NaN; const s = [...list].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; }

function drawStatus(s) {
  const rows = [];
  const v = (s && s.values) || {}, us = (k) => (v[k] === undefined ? "—" : v[k].toFixed(0) + " µs");
  const flags = s ? FLAG_NAMES.filter((_, k) => s.flags & (1 << k)).join(", ") || "none" : "—";
  rows.push(row("filter flags", flags));
  for (const [bit, name] of SENSORS) {
    const present = s && s.sensorsPresent & bit, healthy = s && s.sensorsHealthy & bit;
    const starting = bit === 0x200000 && s && s.flags & 1;  // the filter is still converging
    rows.push(row(name, !s ? "—" : !present ? "absent" : healthy ? "healthy" : starting ? "initialising" : "FAULT",
      !present || healthy ? "" : starting ? "warn" : "bad"));
  }
  rows.push(row("tick lateness p50 / p99 / max", `${us("late_p50")} / ${us("late_p99")} / ${us("late_max")}`));
  rows.push(row("compute p50 / p99 / max", `${us("comp_p50")} / ${us("comp_p99")} / ${us("comp_max")}`));
  rows.push(row("loop load", s ? s.load.toFixed(1) + " %" : "—"));
  rows.push(row("sensor time", s ? s.time.toFixed(3) + " s" : "—"));
  if (state.mode === "live") {
    const now = performance.now(), recent = state.rxTimes.filter((t) => now - t < 2000);
    rows.push(row("snapshots / s", (recent.length / 2).toFixed(0)));
    rows.push(row("frames / lost / bad datagrams", s ? `${s.frames} / ${s.lostFrames} / ${s.badDatagrams}` : "—"));
    rows.push(row("signatures", signingText(s), s && s.signing === "verified" ? "" : "warn"));
    if (s && s.refusedFrames) rows.push(row("frames refused (the link's key)", `${s.refusedFrames} (last: ${s.lastRefusal || "?"})`, "warn"));
    if (s && s.duplicateSystem) rows.push(row("senders", `two senders use system id ${s.systemID}: the display mixes them`, "bad"));
    if (s && (s.nonFiniteDropped || s.namesEvicted)) rows.push(row("dropped: non-finite values / names over the limit", `${s.nonFiniteDropped || 0} / ${s.namesEvicted || 0}`, "warn"));
    rows.push(row("latency (received → drawn), median", isNaN(median(state.latencies)) ? "—" : median(state.latencies).toFixed(1) + " ms"));
    if (state.ages.length) rows.push(row("latency (tick → drawn), median", median(state.ages).toFixed(1) + " ms"));
  }
  rows.push(row("page frames / s", state.fps.toFixed(0)));
  document.getElementById("status").innerHTML = rows.join("");
  const arm = document.getElementById("arm");
  const armState = s ? s.arm : -1;
  arm.textContent = ["DISARMED", "ARMED", "FAILSAFE"][armState] || "—";
  arm.className = "badge " + (armState === 1 ? "ok" : armState === 2 ? "bad" : "");
}

function updateLink() {
  const link = document.getElementById("link");
  if (state.mode === "trace") { link.textContent = "trace"; link.className = "badge ok"; return; }
  // By the datagram's own time, not by when this page got it: a page opened long after the
  // stream stopped is handed the last snapshot at once, and must not call it live.
  const s = state.snapshot, age = s ? snapshotAgeMs(s.received, Date.now(), state.clockSkew) : Infinity;
  if (!state.socketOpen) { link.textContent = "reconnecting to poise view"; link.className = "badge bad"; }
  else if (!state.snapshotsReceived || age > 1500) { link.textContent = state.snapshotsReceived && isFinite(age) ? `no data for ${(age / 1000).toFixed(0)} s` : "waiting for MAVLink"; link.className = "badge warn"; }
  else if (s.duplicateSystem) { link.textContent = `two senders with system ${s.systemID}`; link.className = "badge bad"; }
  else if (s.signing !== "verified") { link.textContent = `live · system ${s.systemID} · ${s.signing || "unsigned"}`; link.className = "badge warn"; }
  else { link.textContent = `live · system ${s.systemID} · signed`; link.className = "badge ok"; }
}

function signingText(s) {
  if (!s) return "—";
  if (s.signing === "verified") return "verified with the link's key";
  if (s.signing === "signed, not verified") return "signed, not verified (no key given: --signing-key-file)";
  return "unsigned: anyone on the network could have sent this (give the link's key to verify)";
}

// ---- Trace mode: pick the snapshot at the slider's time.
function traceSnapshot(t) {
  const list = state.trace;
  let lo = 0, hi = list.length - 1;
  while (lo < hi) { const mid = (lo + hi + 1) >> 1; if (list[mid].time <= t) lo = mid; else hi = mid - 1; }
  return list[lo];
}

function frame(now) {
  const dt = (now - state.lastWall) / 1000;
  state.lastWall = now;
  state.frameCount++;
  if (now - state.fpsSince >= 1000) { state.fps = state.frameCount * 1000 / (now - state.fpsSince); state.frameCount = 0; state.fpsSince = now; }
  if (state.mode === "trace" && state.trace.length) {
    const end = state.trace[state.trace.length - 1].time;
    if (state.playing) { state.traceTime += dt; if (state.traceTime > end) state.traceTime = 0; }
    document.getElementById("slider").value = String(state.traceTime);
    document.getElementById("timeLabel").textContent = `${state.traceTime.toFixed(2)} / ${end.toFixed(2)} s`;
    state.snapshot = traceSnapshot(state.traceTime);
  }
  draw();
  requestAnimationFrame(frame);
}

function draw() {
  state.lastDraw = performance.now();
  const s = state.snapshot;
  const attitude = s ? bodyAttitude(s) : [1, 0, 0, 0];
  const R = Quat.matrix(attitude);
  drawBoardView(R);
  drawDieView(R);
  drawHorizon(s);
  state.channelCount = channelCount(state.channelNames, s && s.servo, state.channelCount);
  if (state.mode === "trace") traceHistory(); else if (s) record(s, attitude);
  drawPlot("anglePlot", ["pitch", "roll", "yaw"], ["#ff6b6b", "#69db7c", "#74c0fc"], ["pitch (x) °", "roll (y) °", "yaw (z) °"], [-90, 90], null, 360);
  const servos = Array.from({ length: state.channelCount }, (_, k) => "s" + k);
  const labels = channelLabels(state.channelNames, state.channelCount, channelUnits(state.channelUnits, state.history, state.channelCount));
  drawPlot("outputPlot", servos, ["#ffa94d", "#da77f2", "#66d9e8", "#a9e34b", "#ff8787", "#748ffc", "#ffd43b", "#63e6be"], labels, null,
    state.mode === "live" ? "no output channel has been non-zero yet (poise view --config names them)" : "the trace has no output channels");
  const referenceBadge = document.getElementById("referenceBadge");
  referenceBadge.style.display = state.reference ? "" : "none";
  if (s && state.fresh && s.received) {
    const now = Date.now();
    state.latencies.push(now - s.received);
    if (state.latencies.length > 300) state.latencies.shift();
    // With SYSTEM_TIME the sample's own wall time is known: its age when drawn.
    if (s.unixOffsetMs !== undefined && s.unixOffsetMs !== null) {
      state.ages.push(now - (s.time * 1000 + s.unixOffsetMs));
      if (state.ages.length > 300) state.ages.shift();
    }
    state.fresh = false;
  }
  drawStatus(s);
  updateLink();
  window.poiseAttitude = attitude;
  window.poiseLatencyMedian = median(state.latencies);
  window.poiseFps = state.fps;
  // For tests and measurements: what was drawn, as numbers (also as text for --dump-dom).
  window.poiseDebug = {
    modelView: window.poiseModelView, boardModelView: window.poiseBoardModelView, attitude, q: s ? s.q : null,
    time: s ? s.time : null, frame: state.frame, reference: state.reference, snapshots: state.snapshotsReceived,
    traceLength: state.trace.length, fps: state.fps, latencyMedian: window.poiseLatencyMedian,
    latencies: state.latencies.length, tickLatencyMedian: median(state.ages), ages: state.ages.length,
    arm: document.getElementById("arm").textContent, link: document.getElementById("link").textContent,
    channels: channelLabels(state.channelNames, state.channelCount), channelLabels: labels, outputTicks: state.plotTicks.outputPlot, angleTicks: state.plotTicks.anglePlot,
    outputs: s && s.servo ? s.servo.slice(0, state.channelCount) : [], referenceShown: referenceBadge.style.display !== "none",
    clearReferenceEnabled: !document.getElementById("clearReference").disabled,
    angleWidestStep: state.plotSteps.anglePlot, angleBreaks: state.plotBreaks.anglePlot,
    historyReceived: state.historyReceived, historyLength: state.history.length,
    signing: s ? s.signing : null, refusedFrames: s ? s.refusedFrames : 0, duplicateSystem: s ? !!s.duplicateSystem : false,
  };
  document.getElementById("poise-debug").textContent = JSON.stringify(window.poiseDebug);
}

function connect() {
  const socket = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`);
  socket.onopen = () => { state.socketOpen = true; };
  socket.onmessage = (event) => {
    let next;
    try { next = JSON.parse(event.data); } catch (e) { return; }
    // The server's last seconds, sent first to a page that connects late: into the plots.
    if (Array.isArray(next.history)) {
      for (const h of next.history) {
        state.channelCount = channelCount(state.channelNames, h.servo, state.channelCount);
        record(h, bodyAttitude(h));
      }
      state.historyReceived = next.history.length;
      return;
    }
    // A new sender (or the same one restarted): its clock is not the old one's.
    const previous = state.snapshot;
    if (previous && (next.systemID !== previous.systemID || next.time < previous.time)) { state.ages = []; state.history = []; }
    state.snapshot = next;
    state.fresh = true;
    state.snapshotsReceived++;
    state.lastReceive = performance.now();
    state.rxTimes.push(state.lastReceive);
    while (state.rxTimes.length && state.lastReceive - state.rxTimes[0] > 2000) state.rxTimes.shift();
    // Hidden or headless pages get few or no animation frames: draw from here instead.
    if (state.lastReceive - state.lastDraw > 250) draw();
  };
  // The server restarting or the network dropping: try again, for as long as the page is open.
  socket.onclose = () => { state.socketOpen = false; setTimeout(connect, 1000); };
}

async function start() {
  const params = new URLSearchParams(location.search);
  if (params.get("frame") && FRAMES[params.get("frame")]) state.frame = params.get("frame");
  const frameSelect = document.getElementById("frame");
  frameSelect.value = state.frame;
  frameSelect.onchange = () => { state.frame = frameSelect.value; state.reference = null; document.getElementById("clearReference").disabled = true; state.history = []; };
  document.getElementById("setReference").onclick = () => {
    if (!state.snapshot) return;
    state.reference = null;  // bodyAttitude applies the reference; save the absolute one
    state.reference = bodyAttitude(state.snapshot);
    document.getElementById("clearReference").disabled = false; state.history = [];
  };
  document.getElementById("clearReference").onclick = () => { state.reference = null; document.getElementById("clearReference").disabled = true; state.history = []; };
  const info = await (await fetch("info.json")).json();
  state.mode = info.mode;
  state.channelNames = info.channels || [];
  state.channelUnits = info.units || [];
  if (info.now) state.clockSkew = Date.now() - info.now;
  if (info.mode === "trace") {
    state.trace = await (await fetch("trace.json")).json();
    document.getElementById("traceControls").style.display = "flex";
    const slider = document.getElementById("slider");
    slider.max = String(state.trace.length ? state.trace[state.trace.length - 1].time : 1);
    slider.oninput = () => { state.traceTime = Number(slider.value); state.history = []; };
    const play = document.getElementById("play");
    play.onclick = () => { state.playing = !state.playing; play.textContent = state.playing ? "Pause" : "Play"; };
    if (params.has("t")) { state.traceTime = Number(params.get("t")); state.playing = false; play.textContent = "Play"; }
    state.snapshotsReceived = state.trace.length;
    state.snapshot = state.trace.length ? traceSnapshot(state.traceTime) : null;
    if (params.has("reference")) {
      state.reference = bodyAttitude(traceSnapshot(Number(params.get("reference"))));
      document.getElementById("clearReference").disabled = false;
    }
  } else {
    connect();
  }
  draw();
  requestAnimationFrame(frame);
}
start();
"""#
}
