"""A release's full-text index of party names on SQLite (FTS5): party search in time that does not
grow with how many names share the query's words (docs/decisions.md, "Party search by full-text index").

The index holds each party's folded words (`parties.words`, spaces between them) under its `seq`, the
last one with an end-of-name mark. The word index (`party_words`) finds the same parties, but a page
of it ranks and counts every match through the parties table: 233 ms for `firma` (400,000 matches).
Here each rank is a query of the index read in `seq` order, so a page stops at its last row and
only the total reads a whole posting list.

Three things keep a word most names share from reading whole posting lists for a page: a query word
longer than the prefix indexes is asked as the few words of the word index it begins (an FTS5 prefix
query of it would first merge every posting list it matches, all of it, 20 ms for `firma`); the
exact and prefix ranks, which are string comparisons of the whole folded name, are answered by a
B-tree on the names when few names have them (an FTS5 query that finds none reads every name that
holds the words: 40 ms for `^"a s"*`); and the total of such a query is counted once per release.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable

from sqlalchemy import Connection, text
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
LONGEST_PREFIX = 3
# A longer query word is asked as the words of the word index it begins, when there are at most
# this many (each as itself and as a last word, with the mark); more, and it stays a prefix query.
MOST_TERMS = 16
# The exact and prefix ranks come from the B-tree on the folded names when fewer than this many
# names begin with the query (sorting them by seq is then cheap); more, and the index answers.
FEW_BY_NAME = 2000
AFTER_EVERY_CHARACTER = "\U0010ffff"  # store.details.WORD_END: the end of a range of words
# How many totals each database connection keeps. Counting every match is the one step that reads a
# whole posting list (20-30 ms for 400,000 matches); a release's names never change once loaded, so
# a total counted once stays true for as long as the release is served, and the key holds the load
# time, so a release loaded again under a freed id is counted afresh.
KEPT_TOTALS = 256


def name_index(release_id: int) -> str:
    return f"party_names_r{int(release_id)}"


def names_btree(release_id: int) -> str:
    """The B-tree on a release's folded names: it goes with the parties table."""
    return f"ix_parties_r{int(release_id)}_words"


def build_name_index(session: Session, release_id: int) -> None:
    """Create and fill a release's name index from its parties table (SQLite only; one transaction)."""
    name = name_index(release_id)
    session.execute(text(f"CREATE VIRTUAL TABLE {name} USING fts5(words, content='', columnsize=0, "
                         f"tokenize='{TOKENIZER}', prefix='{PREFIXES}')"))
    session.execute(text(f"INSERT INTO {name} (rowid, words) SELECT seq, words || '{NAME_END}' "
                         f"FROM parties_r{int(release_id)}"))
    session.execute(text(f"CREATE INDEX {names_btree(release_id)} ON parties_r{int(release_id)} (words)"))


def _in(schema: str | None, name: str) -> str:
    """`name` in the database attached as `schema` (store/release_db.py), or as found when None."""
    return f"{schema}.{name}" if schema else name


def has_name_index(session: Session, release_id: int, schema: str | None = None) -> bool:
    """Whether the release has one (in the database attached as `schema`, if given): SQLite releases
    loaded before it, and PostgreSQL, do not."""
    connection = session.connection()
    if connection.dialect.name != "sqlite":
        return False
    found = connection.exec_driver_sql(f"SELECT 1 FROM {_in(schema, 'sqlite_master')} WHERE type = 'table' AND name = ?",
                                       (name_index(release_id),)).first()
    return found is not None


def _has_names_btree(connection: Connection, release_id: int, schema: str | None) -> bool:
    """Releases whose name index was built before the B-tree have none: their ranks come from the index."""
    return connection.exec_driver_sql(f"SELECT 1 FROM {_in(schema, 'sqlite_master')} WHERE type = 'index' AND name = ?",
                                      (names_btree(release_id),)).first() is not None


class _Terms:
    """The index tokens a query word stands for: None for a prefix query (`"w"*`), else the words of
    the word index it begins, each also as a last word (`w` + NAME_END); [] when it begins none."""

    def __init__(self, connection: Connection, release_id: int, schema: str | None) -> None:
        self.connection, self.table = connection, _in(schema, f"party_words_r{int(release_id)}")
        self.known: dict[str, list[str] | None] = {}

    def __call__(self, word: str) -> list[str] | None:
        if len(word) <= LONGEST_PREFIX:
            return None  # a prefix index answers it as one posting list
        if word not in self.known:
            self.known[word] = self._words_beginning(word)
        found = self.known[word]
        return None if found is None else [t for w in found for t in (w, w + NAME_END)]

    def _words_beginning(self, word: str) -> list[str] | None:
        # One seek of the word index (word, seq) per distinct word, not a read of every entry.
        sql = f"SELECT word FROM {self.table} WHERE word {{}} ? AND word < ? ORDER BY word LIMIT 1"
        end = word + AFTER_EVERY_CHARACTER
        found: list[str] = []
        row = self.connection.exec_driver_sql(sql.format(">="), (word, end)).first()
        while row is not None:
            if len(found) == MOST_TERMS:
                return None
            found.append(str(row[0]))
            row = self.connection.exec_driver_sql(sql.format(">"), (found[-1], end)).first()
        return found


def _phrase(words: list[str], *, prefix: bool = True, start: bool = False,
            terms: Callable[[str], list[str] | None] = lambda word: None) -> str:
    """`"w1 w2 w3"*` (`^` first when `start`): with `prefix`, the last word begins a word of the name,
    asked as the words it stands for when `terms` gives them."""
    anchor = "^" if start else ""
    last = terms(words[-1]) if prefix else None
    if last is None:
        return anchor + '"' + " ".join(words) + '"' + ("*" if prefix else "")
    head = " ".join(words[:-1]) + " " if len(words) > 1 else ""
    return "(" + " OR ".join(f'{anchor}"{head}{t}"' for t in last) + ")"


def rank_queries(words: list[str], terms: Callable[[str], list[str] | None] = lambda word: None,
                 ) -> tuple[str, list[str]]:
    """The query of every match and those of each rank, best first (store.parties.MATCHES): the
    whole name; its beginning; a later run of its words; every word at the start of some word."""
    every = " AND ".join(_phrase([w], terms=terms) for w in dict.fromkeys(words))
    whole = "^" + _phrase([*words[:-1], words[-1] + NAME_END], prefix=False)
    start, anywhere = _phrase(words, start=True, terms=terms), _phrase(words, terms=terms)
    return every, [whole, f"{start} NOT {whole}", f"{anywhere} NOT {start}", f"({every}) NOT {anywhere}"]


def _by_name(connection: Connection, release_id: int, schema: str | None, rank: int, words: list[str],
             seqs: tuple[int, int], start: int, limit: int) -> list[int] | None:
    """The seqs of the exact (rank 0) or prefix (rank 1) matches after `start`, from the B-tree on
    the folded names; None when FEW_BY_NAME names or more begin with the query (the index is then
    quicker, its matches being dense)."""
    # INDEXED BY: the planner would otherwise read the kind's whole range of seq (400,000 rows).
    phrase = " ".join(words)
    table = f"{_in(schema, f'parties_r{int(release_id)}')} INDEXED BY {names_btree(release_id)}"
    values: tuple[str, ...]
    if rank == 0:
        where, values = "words = ?", (phrase,)
    else:
        where, values = "words > ? AND words < ?", (phrase, phrase + AFTER_EVERY_CHARACTER)
        many = connection.exec_driver_sql(
            f"SELECT count(*) FROM (SELECT 1 FROM {table} WHERE {where} AND seq BETWEEN ? AND ? LIMIT ?)",
            (*values, *seqs, FEW_BY_NAME)).scalar()
        if many == FEW_BY_NAME:
            return None
    rows = connection.exec_driver_sql(f"SELECT seq FROM {table} WHERE {where} AND seq > ? AND seq <= ? "
                                      "ORDER BY seq LIMIT ?", (*values, start, seqs[1], limit)).all()
    return [int(r[0]) for r in rows]


def _total(connection: Connection, release_id: int, schema: str | None, loaded: object, query: str,
           seqs: tuple[int, int]) -> int:
    """How many names within `seqs` match `query`; kept per connection (KEPT_TOTALS) when the
    release's load time is given."""
    totals: OrderedDict[tuple, int] = connection.info.setdefault("gosterge.name_index.totals", OrderedDict())
    key = (release_id, loaded, query, seqs)
    if loaded is not None and key in totals:
        totals.move_to_end(key)
        return totals[key]
    name = name_index(release_id)
    total = int(connection.exec_driver_sql(
        f"SELECT count(*) FROM {_in(schema, name)} WHERE {name} MATCH ? AND rowid >= ? AND rowid <= ?",
        (query, *seqs)).scalar() or 0)
    if loaded is not None:
        totals[key] = total
        while len(totals) > KEPT_TOTALS:
            totals.popitem(last=False)
    return total


def search_positions(session: Session, release_id: int, words: list[str], seqs: tuple[int, int], *,
                     after: tuple[int, int] | None, limit: int,
                     schema: str | None = None, loaded: object = None) -> tuple[list[tuple[int, int]], int]:
    """The (rank, seq) positions of a page of matches within the `seqs` range (one kind's), best
    rank first then seq, following `after`; and how many match in all. `schema`: as has_name_index;
    `loaded` (the release's load time) lets the total be kept for the next page or search of the
    same words."""
    name = name_index(release_id)
    connection = session.connection()
    # The left side of MATCH names the table of the FROM clause, without its schema.
    sql = (f"SELECT rowid FROM {_in(schema, name)} WHERE {name} MATCH ? AND rowid > ? AND rowid <= ? "
           "ORDER BY rowid LIMIT ?")
    terms = _Terms(connection, release_id, schema)
    if any(terms(word) == [] for word in words):
        return [], 0  # a word that begins no word of any name: nothing matches
    every, ranks = rank_queries(words, terms)
    total = _total(connection, release_id, schema, loaded, every, seqs)
    if not total:
        return [], 0
    by_name = _has_names_btree(connection, release_id, schema)
    positions: list[tuple[int, int]] = []
    # One word: every match is a run of the name's words (rank 2 at worst), and the last query
    # would read the whole posting list to find nothing.
    ranks = ranks[:3] if len(words) == 1 else ranks
    for rank, query in enumerate(ranks):
        if len(positions) >= limit or (after is not None and rank < after[0]):
            continue
        start = after[1] if after is not None and rank == after[0] else seqs[0] - 1
        found = _by_name(connection, release_id, schema, rank, words, seqs, start, limit - len(positions)) \
            if by_name and rank < 2 else None
        if found is None:
            found = [int(r[0]) for r in connection.exec_driver_sql(
                sql, (query, start, seqs[1], limit - len(positions))).all()]
        positions.extend((rank, seq) for seq in found)
    return positions, int(total)
