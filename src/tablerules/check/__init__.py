"""Checks a ruleset goes through after loading: structure (schema), then names and types."""
