// PoiseRuntime
