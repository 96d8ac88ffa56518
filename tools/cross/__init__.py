"""Cross targets: build, barrier check and test runs under qemu."""
