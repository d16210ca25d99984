"""One blueprint per area; each route parses, calls store/, and shapes the answer."""
