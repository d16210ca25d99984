"""Loaders: fetch, parse and compute what the store serves."""
