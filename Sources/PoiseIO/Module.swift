// PoiseIO
