// PoiseReplay: one trace pipeline — a trace's samples turned into filter updates with their
// time steps — under replay, tick replay (the loop's whole tick over a recording),
// evaluation against ground truth, and playback for telemetry and the viewer.
