PORT_CHECK_TARGETS := hosted
PORT_CHECK_ONLY := line/mask
