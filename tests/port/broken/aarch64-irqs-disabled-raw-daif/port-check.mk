PORT_CHECK_TARGETS := aarch64
PORT_CHECK_ONLY := irq/irqs-disabled
