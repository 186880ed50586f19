"""Offline tools over run directories: replay a run's replies through a parser, diagnose
which stage failed, calibrate a model's coordinates, and estimate or total a run's cost."""
