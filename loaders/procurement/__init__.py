"""Procurement releases: open, validate, compute the statistics, store; and a synthetic generator."""
