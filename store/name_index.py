"""A release's full-text index of party names on SQLite (FTS5): party search in time that does not
grow with how many names share the query's words (docs/decisions.md, "Party search by full-text index").

The index holds each party's folded words (`parties.words`, spaces between them) under its `seq`, the
last one with an end-of-name mark. The word index (`party_words`) finds the same parties, but a page
of it ranks and counts every match through the parties table: 233 ms for `firma` (400,000 matches).
Here each rank is a query of the index read in `seq` order, so a page stops at its last row and
only the total reads a whole posting list.
"""

from __future__ import annotations

from sqlalchemy import text
from sqlalchemy.orm import Session

# The `ascii` tokenizer splits only at ASCII characters that are not letters or digits: the folded
# words are runs of letters and digits with single spaces between them (store.reference.folding),
# so its tokens are exactly those words, a non-ASCII letter included (`unicode61` would fold or
# split some of them differently from the word index).
TOKENIZER = "ascii"
# A character no folded word holds (a control picture, not a letter or a digit), written after the
# last word: the whole name is then a phrase anchored at both ends whose last token is rare, where a
# token of its own after every name would be a posting list of every party (27 ms for `firma`). A
# prefix query of the last word still finds it (`s`* finds `s` + mark), and no query word is
# matched exactly but inside a phrase, where the name's last word is never followed by another.
NAME_END = "\u2403"
# Prefix queries of one to three characters read one posting list each instead of merging those
# of every word they begin (`a` of `A.Ş.` begins thousands).
PREFIXES = "1 2 3"


def name_index(release_id: int) -> str:
    return f"party_names_r{int(release_id)}"


def build_name_index(session: Session, release_id: int) -> None:
    """Create and fill a release's name index from its parties table (SQLite only; one transaction)."""
    name = name_index(release_id)
    session.execute(text(f"CREATE VIRTUAL TABLE {name} USING fts5(words, content='', columnsize=0, "
                         f"tokenize='{TOKENIZER}', prefix='{PREFIXES}')"))
    session.execute(text(f"INSERT INTO {name} (rowid, words) SELECT seq, words || '{NAME_END}' "
                         f"FROM parties_r{int(release_id)}"))


def has_name_index(session: Session, release_id: int, schema: str | None = None) -> bool:
    """Whether the release has one (in the database attached as `schema`, if given): SQLite releases
    loaded before it, and PostgreSQL, do not."""
    connection = session.connection()
    if connection.dialect.name != "sqlite":
        return False
    master = f"{schema}.sqlite_master" if schema else "sqlite_master"
    found = connection.exec_driver_sql(f"SELECT 1 FROM {master} WHERE type = 'table' AND name = ?",
                                       (name_index(release_id),)).first()
    return found is not None


def _phrase(words: list[str], *, prefix: bool = True) -> str:
    return '"' + " ".join(words) + '"' + ("*" if prefix else "")


def rank_queries(words: list[str]) -> tuple[str, list[str]]:
    """The query of every match and those of each rank, best first (store.parties.MATCHES): the
    whole name; its beginning; a later run of its words; every word at the start of some word."""
    every = " AND ".join(_phrase([w]) for w in dict.fromkeys(words))
    whole = "^" + _phrase([*words[:-1], words[-1] + NAME_END], prefix=False)
    start, anywhere = "^" + _phrase(words), _phrase(words)
    return every, [whole, f"{start} NOT {whole}", f"{anywhere} NOT {start}", f"({every}) NOT {anywhere}"]


def search_positions(session: Session, release_id: int, words: list[str], seqs: tuple[int, int], *,
                     after: tuple[int, int] | None, limit: int,
                     schema: str | None = None) -> tuple[list[tuple[int, int]], int]:
    """The (rank, seq) positions of a page of matches within the `seqs` range (one kind's), best
    rank first then seq, following `after`; and how many match in all. `schema`: as has_name_index."""
    name = name_index(release_id)
    # The left side of MATCH names the table of the FROM clause, without its schema.
    source = f"{schema}.{name}" if schema else name
    connection = session.connection()
    sql = f"SELECT rowid FROM {source} WHERE {name} MATCH ? AND rowid > ? AND rowid <= ? ORDER BY rowid LIMIT ?"
    every, ranks = rank_queries(words)
    total = connection.exec_driver_sql(
        f"SELECT count(*) FROM {source} WHERE {name} MATCH ? AND rowid >= ? AND rowid <= ?", (every, *seqs)).scalar()
    if not total:
        return [], 0
    positions: list[tuple[int, int]] = []
    # One word: every match is a run of the name's words (rank 2 at worst), and the last query
    # would read the whole posting list to find nothing.
    ranks = ranks[:3] if len(words) == 1 else ranks
    for rank, query in enumerate(ranks):
        if len(positions) >= limit or (after is not None and rank < after[0]):
            continue
        start = after[1] if after is not None and rank == after[0] else seqs[0] - 1
        rows = connection.exec_driver_sql(sql, (query, start, seqs[1], limit - len(positions))).all()
        positions.extend((rank, int(r[0])) for r in rows)
    return positions, int(total)
