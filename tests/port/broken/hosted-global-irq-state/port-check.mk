PORT_CHECK_TARGETS := hosted
PORT_CHECK_ONLY := irq/state-is-per-cpu
