// PoiseTraces
