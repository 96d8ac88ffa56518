PORT_CHECK_TARGETS := armv7m
PORT_CHECK_ONLY := irq/masked-interrupt
