// PoiseMotion
