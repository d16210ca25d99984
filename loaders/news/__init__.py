"""Finance news: the four sources, their documents, the summaries and the checks on them."""
