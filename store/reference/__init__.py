"""The vocabulary every part shares: provinces and their boundaries, sectors, authority types,
procedures, the price index, the news sources, categories and sentiments, the index dimensions and
the years the source covers completely.

It sits on the ground floor beside the store and imports no other part of the project, so that the
API, the loaders and the command can all read it. The dashboard does not import it: it reads the
same lists from the API's free reference endpoints. Sources and licences of the data files are in
`data/README.md`.
"""
