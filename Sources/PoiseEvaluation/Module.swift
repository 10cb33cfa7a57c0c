// PoiseEvaluation
