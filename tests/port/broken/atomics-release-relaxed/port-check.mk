PORT_CHECK_TARGETS := aarch64-smp
PORT_CHECK_ONLY := atomics/mp
