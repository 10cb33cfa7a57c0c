// PoisePlot
