"""Typed table models: keys and their audit trail, procurement releases and served items, news articles."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    BigInteger,
    Boolean,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    false,
    text,
    true,
)
from sqlalchemy.orm import Mapped, mapped_column, relationship

from store.db import Base
from store.items import KEY_COLUMNS

RUNNING_JOB_INDEX = "uq_release_jobs_running"


class SchemaVersion(Base):
    __tablename__ = "schema_version"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    version: Mapped[int] = mapped_column(Integer)


class DataVersion(Base):
    """A counter bumped by every write to one kind of data, so that readers can cache what derives from it."""

    __tablename__ = "data_versions"

    name: Mapped[str] = mapped_column(String(40), primary_key=True)
    version: Mapped[int] = mapped_column(BigInteger, default=0)


class ServerKey(Base):
    """A secret the service generated once (the cursor signing key), shared by every worker and host."""

    __tablename__ = "server_keys"

    name: Mapped[str] = mapped_column(String(40), primary_key=True)
    value: Mapped[str] = mapped_column(String(128))


def api_names(apis: str) -> list[str]:
    """The API names of a key, stored comma-separated."""
    return [a for a in apis.split(",") if a]


class ApiKey(Base):
    """An API key: only its SHA-256 digest is kept, never the key itself."""

    __tablename__ = "api_keys"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    key_hash: Mapped[str] = mapped_column(String(64), unique=True)
    prefix: Mapped[str] = mapped_column(String(16))
    label: Mapped[str] = mapped_column(String(200), default="")
    apis: Mapped[str] = mapped_column(String(200))  # comma-separated API names
    credits: Mapped[int] = mapped_column(BigInteger, default=0)
    rate: Mapped[str] = mapped_column(String(40))
    is_admin: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)

    @property
    def api_list(self) -> list[str]:
        return api_names(self.apis)


class AccountRequest(Base):
    """A self-registration waiting for, or past, the mailbox owner's decision; tokens are kept as hashes."""

    __tablename__ = "account_requests"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    email: Mapped[str] = mapped_column(String(254), index=True)
    apis: Mapped[str] = mapped_column(String(200))
    status: Mapped[str] = mapped_column(String(12))  # pending, approved, refused, delivered
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    decided_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    decision_token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    poll_token_hash: Mapped[str] = mapped_column(String(64))
    client_address: Mapped[str] = mapped_column(String(64), default="")
    key_id: Mapped[int | None] = mapped_column(ForeignKey("api_keys.id"), nullable=True)


class SignupAllowance(Base):
    """How many approval mails one address (compared without regard to case) got in its current
    day-long window: the daily cap, taken and checked in one conditional UPDATE."""

    __tablename__ = "signup_allowances"

    address: Mapped[str] = mapped_column(String(254), primary_key=True)  # lower case
    window_start: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    used: Mapped[int] = mapped_column(Integer, default=0)


class DownloadCharge(Base):
    """When a key last paid for a release file (by its SHA-256): its Range requests for the file are
    free for a day after (api/routes/downloads.py), so a broken download resumes without paying again."""

    __tablename__ = "download_charges"

    key_id: Mapped[int] = mapped_column(ForeignKey("api_keys.id", ondelete="CASCADE"), primary_key=True)
    sha256: Mapped[str] = mapped_column(String(64), primary_key=True)
    charged_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class Watchlist(Base):
    """A key's saved awards filter, and the address its weekly digest goes to once confirmed. The
    public id is random (not guessable); `seq` orders a key's list newest first. Tokens are kept as
    digests (store/keys.py `hash_key`), like every other secret of a link."""

    __tablename__ = "watchlists"

    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    id: Mapped[str] = mapped_column(String(32), unique=True)
    key_id: Mapped[int] = mapped_column(ForeignKey("api_keys.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(100))
    filters: Mapped[str] = mapped_column(Text)  # JSON: the normalised filters, as served
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # The release served when it was created: digests cover releases loaded after it.
    baseline_release_id: Mapped[int] = mapped_column(Integer, default=0)
    notify: Mapped[str | None] = mapped_column(String(254), nullable=True)
    confirmed: Mapped[bool] = mapped_column(Boolean, default=False)
    unsubscribed: Mapped[bool] = mapped_column(Boolean, default=False)
    confirm_token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, unique=True)
    unsubscribe_token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, unique=True)

    __table_args__ = (Index("ix_watchlists_key", "key_id", "seq"),)


class WatchlistDigest(Base):
    """One digest of one watchlist for one release: unique, so a release is digested once per
    watchlist however many senders run. `status`: pending, sending (claimed until `claimed_until`),
    sent, empty (no new matches), failed (attempts used up), capped (the address had its mails for
    the day), skipped (nothing to compare with: the earlier release was pruned)."""

    __tablename__ = "watchlist_digests"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    watchlist_seq: Mapped[int] = mapped_column(ForeignKey("watchlists.seq", ondelete="CASCADE"))
    release_id: Mapped[int] = mapped_column(ForeignKey("releases.id", ondelete="CASCADE"))
    since_release_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    status: Mapped[str] = mapped_column(String(12), default="pending")
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_attempt_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    claimed_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    last_error: Mapped[str] = mapped_column(Text, default="")
    matches: Mapped[int] = mapped_column(Integer, default=0)
    sent_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)

    __table_args__ = (UniqueConstraint("watchlist_seq", "release_id", name="uq_watchlist_digests_release"),
                      Index("ix_watchlist_digests_due", "status", "next_attempt_at"))


class AuditEntry(Base):
    """Who did what to keys and releases, and when."""

    __tablename__ = "audit_log"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    actor: Mapped[str] = mapped_column(String(100))
    action: Mapped[str] = mapped_column(String(60))
    target: Mapped[str] = mapped_column(String(200), default="")
    detail: Mapped[str] = mapped_column(Text, default="")


class Release(Base):
    """One loaded weekly procurement release; exactly one is active (served) at a time."""

    __tablename__ = "releases"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(20))
    published_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    loaded_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    synthetic: Mapped[bool] = mapped_column(Boolean, default=False)
    is_active: Mapped[bool] = mapped_column(Boolean, default=False, index=True)
    uploaded_by: Mapped[str] = mapped_column(String(100), default="cli")
    latest_year: Mapped[int] = mapped_column(Integer)
    total_rows: Mapped[int] = mapped_column(BigInteger, default=0)
    # False while its items are written, in batches of their own short transactions (so that on
    # SQLite no write lock is held for the whole load): such a release is never listed nor served.
    complete: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    # The layout of the release's own tables of awards, parties and benchmarks (store/details.py);
    # 0 for a release loaded before they existed, which has none.
    details: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    # Whether its tenders.csv had the optional `name` column: its awards then carry `tenderName`.
    tender_names: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # Whether its tenders were kept in a table of their own (store/details.py `tender_table`).
    tenders: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # When retention removed its own tables (store/retention.py): it stays listed, and is never served again.
    pruned_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)

    datasets: Mapped[list[ReleaseDataset]] = relationship(
        back_populates="release", cascade="all, delete-orphan", order_by="ReleaseDataset.position"
    )


class ReleaseJob(Base):
    """An uploaded release being loaded in a process of its own: its stage while it runs, then the
    release it became or the problems that refused it. Kept in the store so that every worker and
    host can answer its status URL."""

    __tablename__ = "release_jobs"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    status: Mapped[str] = mapped_column(String(12))  # running, loaded, refused, failed
    stage: Mapped[str] = mapped_column(String(20))  # receiving, unpacking, validating, computing, writing, done
    items_written: Mapped[int] = mapped_column(BigInteger, default=0)
    uploaded_by: Mapped[str] = mapped_column(String(100))
    host: Mapped[str] = mapped_column(String(255))  # where the load runs; only there can it be seen alive
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))  # the loading process's heartbeat
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    release_id: Mapped[int | None] = mapped_column(ForeignKey("releases.id", ondelete="SET NULL"), nullable=True)
    problem: Mapped[str] = mapped_column(Text, default="")  # JSON: the problem document of a refusal or failure

    # One upload loads at a time: two loads at once would activate whichever finished last. The
    # database refuses a second running job even when two uploads arrive in the same instant.
    __table_args__ = (Index(RUNNING_JOB_INDEX, "status", unique=True, sqlite_where=text("status = 'running'"),
                            postgresql_where=text("status = 'running'")),)


class ReleaseDataset(Base):
    """A source dataset of a release as its manifest names it."""

    __tablename__ = "release_datasets"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    release_id: Mapped[int] = mapped_column(ForeignKey("releases.id", ondelete="CASCADE"), index=True)
    position: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(100))
    file: Mapped[str] = mapped_column(String(200))
    rows: Mapped[int] = mapped_column(BigInteger)
    citation: Mapped[str] = mapped_column(Text, default="")
    url: Mapped[str] = mapped_column(Text, default="")

    release: Mapped[Release] = relationship(back_populates="datasets")


class StatItem(Base):
    """One served item of a procurement endpoint, computed at load time and kept as its JSON body.

    The three key columns hold what the endpoint filters on; what each means for each `kind` is
    said in one place, store/items.py, through which items are written and read. `seq` is the item's position in the endpoint's order, `seq_alt` in its alternative order
    (province-sectors sorted by tenders), so that paging is a keyset walk over an index.
    """

    __tablename__ = "stat_items"

    id: Mapped[int] = mapped_column(BigInteger().with_variant(Integer, "sqlite"), primary_key=True)
    release_id: Mapped[int] = mapped_column(ForeignKey("releases.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(30))
    key1: Mapped[str] = mapped_column(String(40), default="")
    key2: Mapped[str] = mapped_column(String(40), default="")
    key3: Mapped[str] = mapped_column(String(40), default="")
    seq: Mapped[int] = mapped_column(Integer)
    seq_alt: Mapped[int] = mapped_column(Integer, default=0)
    body: Mapped[str] = mapped_column(Text)

    __table_args__ = (
        Index("ix_stat_items_lookup", "release_id", "kind", *KEY_COLUMNS, "seq"),
        Index("ix_stat_items_order", "release_id", "kind", "seq"),
        Index("ix_stat_items_order_alt", "release_id", "kind", "seq_alt"),
    )


# The newest-first walk of the article list; named so that SQLite can be told to use it.
ORDER_INDEX = "ix_articles_order"


class Article(Base):
    """A summarised news article; list-valued fields are kept in child tables for filtering."""

    __tablename__ = "articles"

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    source: Mapped[str] = mapped_column(String(20))
    url: Mapped[str] = mapped_column(Text)
    published_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    category: Mapped[str] = mapped_column(String(30))
    sentiment: Mapped[str] = mapped_column(String(10))
    importance: Mapped[int] = mapped_column(Integer)
    confident: Mapped[bool] = mapped_column(Boolean)
    # Sortable key "<RFC 3339 UTC>|<id>": one column makes the keyset walk a single range scan.
    order_key: Mapped[str] = mapped_column(String(80), unique=True)
    body: Mapped[str] = mapped_column(Text)

    __table_args__ = (
        Index(ORDER_INDEX, "order_key"),
        Index("ix_articles_source_order", "source", "order_key"),
        Index("ix_articles_category_order", "category", "order_key"),
    )


class ArticleFacet(Base):
    """One value of a list-valued article field (tag, ticker, country) for filtering."""

    __tablename__ = "article_facets"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    article_id: Mapped[str] = mapped_column(ForeignKey("articles.id", ondelete="CASCADE"))
    facet: Mapped[str] = mapped_column(String(10))
    value: Mapped[str] = mapped_column(String(100))

    __table_args__ = (
        UniqueConstraint("article_id", "facet", "value", name="uq_article_facets_value"),
        Index("ix_article_facets_lookup", "facet", "value", "article_id"),
    )


class SummaryFailure(Base):
    """A document whose summary could not be produced or did not pass the checks."""

    __tablename__ = "summary_failures"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    article_id: Mapped[str] = mapped_column(String(40), index=True)
    source: Mapped[str] = mapped_column(String(20))
    url: Mapped[str] = mapped_column(Text)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    reason: Mapped[str] = mapped_column(Text)
    attempts: Mapped[int] = mapped_column(Integer, default=1)


__all__ = [
    "AccountRequest",
    "ApiKey",
    "Article",
    "ArticleFacet",
    "AuditEntry",
    "DataVersion",
    "DownloadCharge",
    "Release",
    "ReleaseDataset",
    "ReleaseJob",
    "SchemaVersion",
    "ServerKey",
    "SignupAllowance",
    "StatItem",
    "SummaryFailure",
    "Watchlist",
    "WatchlistDigest",
]
