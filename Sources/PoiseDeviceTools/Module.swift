// PoiseDeviceTools: the bench commands both programs run on a board's hardware — `probe`
// (an I²C scan, the chip named, samples in SI units) and `safe` (every output at its safe
// value) — written once for `poise` and `poise-board`. Builds in Embedded Swift: no
// Foundation, text handed to a sink the program chose.
