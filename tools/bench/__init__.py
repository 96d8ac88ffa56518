"""Benchmarks: instruction counts, wall times, race rates, proof and test times."""
