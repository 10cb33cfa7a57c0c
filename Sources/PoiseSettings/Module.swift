// PoiseSettings: the configuration bound to each module's typed settings — the filter the
// config names, the sensor and output settings, the tick's tuning and the telemetry rates.
// Every other module takes typed settings and never reads the configuration itself.
