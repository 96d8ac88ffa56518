PORT_CHECK_TARGETS := hosted aarch64-smp
PORT_CHECK_ONLY := atomics/rmw
