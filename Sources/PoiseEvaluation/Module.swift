// PoiseEvaluation: scoring attitude estimates against ground truth with the metric of the
// BROAD benchmark (Laidig et al., Data 2021). Offline code: it stores per-row errors and
// uses Double throughout; never on the real-time path.
