// PoiseConfig
