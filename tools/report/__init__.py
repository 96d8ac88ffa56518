"""The evidence report: load the fresh results, join them with the requirements, render them."""
