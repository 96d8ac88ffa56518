.PHONY: deps
deps: ## install the missing Debian packages (root), or print the apt-get line
	@tools/deps.sh
