import PoiseTelemetry
/// The page `poise view` serves: HTML and script live in the binary, so it works offline.
enum PageAssets {
    static let html = #"""
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Poise view</title>
<style>
  body { margin: 0; font: 13px/1.35 system-ui, sans-serif; background: #14171c; color: #dde3ea; }
  header { display: flex; gap: 1em; align-items: center; padding: 6px 10px; background: #1d2229; flex-wrap: wrap; }
  header h1 { font-size: 15px; margin: 0 1em 0 0; }
  .badge { padding: 1px 8px; border-radius: 9px; background: #333a44; }
  .ok { background: #1f6f3f; } .warn { background: #8a6d12; } .bad { background: #8e2424; }
  main { display: grid; grid-template-columns: repeat(auto-fit, minmax(330px, 1fr)); gap: 8px; padding: 8px; }
  section { background: #1b1f26; border-radius: 6px; padding: 6px; }
  section h2 { font-size: 12px; font-weight: 600; margin: 0 0 4px; color: #9fb0c3; text-transform: uppercase; letter-spacing: .04em; }
  canvas { width: 100%; display: block; background: #0f1216; border-radius: 4px; }
  table { border-collapse: collapse; width: 100%; } td { padding: 1px 4px; } td.v { text-align: right; font-variant-numeric: tabular-nums; }
  #traceControls { display: none; gap: .5em; align-items: center; flex: 1; }
  #slider { flex: 1; min-width: 160px; }
  #poise-debug { display: none; }
  .wide { grid-column: 1 / -1; }
</style>
</head>
<body>
<header>
  <h1>Poise view</h1>
  <span id="link" class="badge">connecting</span>
  <span id="arm" class="badge">—</span>
  <label>Frame <select id="frame"><option value="enu">ENU</option><option value="nwu">NWU</option><option value="ned">NED</option></select></label>
  <button id="setReference">Set reference</button>
  <button id="clearReference" disabled>Clear reference</button>
  <span id="referenceBadge" class="badge warn" style="display: none">relative to the reference</span>
  <span id="traceControls"><button id="play">Pause</button><input id="slider" type="range" min="0" max="1" step="0.001" value="0"><span id="timeLabel">0.00 s</span></span>
</header>
<main>
  <section><h2>Board, world-fixed camera</h2><canvas id="boardView" width="480" height="360"></canvas></section>
  <section><h2>World-fixed die seen through the board</h2><canvas id="dieView" width="480" height="360"></canvas></section>
  <section><h2>Horizon and heading</h2><canvas id="horizon" width="480" height="360"></canvas></section>
  <section><h2>Status</h2><table id="status"></table></section>
  <section class="wide"><h2>Attitude (Core Motion angles in the selected frame, °)</h2><canvas id="anglePlot" width="1200" height="220"></canvas></section>
  <section class="wide"><h2>Outputs</h2><canvas id="outputPlot" width="1200" height="180"></canvas></section>
</main>
<pre id="poise-debug"></pre>
<script src="app.js"></script>
</body>
</html>
"""#
}
