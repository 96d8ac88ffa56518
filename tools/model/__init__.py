"""The SPIN model runners: one pan run (pan), the matrix, its shards, scale and swarm runs."""
