// PoiseSensors
