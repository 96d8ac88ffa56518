"""The mutation campaign."""
