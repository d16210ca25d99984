"""The answers of the watchlist endpoints: a watchlist, its list, and its new awards."""

from __future__ import annotations

from typing import Any

from api.description.schema_types import envelope, instant, obj, prop, text

WATCHLIST_SCHEMAS: dict[str, dict[str, Any]] = {
    "Watchlist": obj({
        "id": text("The watchlist's id (random, not guessable)."),
        "name": text("Its name, as given.", minLength=1, maxLength=100),
        "filters": prop("The filters given, normalised as /awards items give the values (provinces and sectors "
                        "as ids, `flag` as a list of ids); `minValue` a least contract value in TRY.",
                        type="object"),
        "notify": prop("The address its weekly digest goes to, or null. Nothing but the confirmation mail is "
                       "sent until `confirmed`; nothing at all once `unsubscribed`.", type=["object", "null"],
                       properties={"address": text("The address.", format="email"),
                                   "confirmed": prop("Whether its owner followed the confirmation link.",
                                                     type="boolean"),
                                   "unsubscribed": prop("Whether its owner unsubscribed.", type="boolean")},
                       required=["address", "confirmed", "unsubscribed"]),
        "createdAt": instant("When it was created"),
        "awardsUrl": text("Its new awards (/watchlists/{id}/awards).", format="uri"),
    }, description="Saved awards filters, and the address their weekly digest goes to."),
}
WATCHLIST_SCHEMAS["WatchlistPage"] = envelope("Watchlist")
_awards = envelope("Award")
WATCHLIST_SCHEMAS["WatchlistAwardPage"] = {
    **_awards, "properties": {**_awards["properties"], "since": prop(
        "The release the awards are new since: its awards hold none of these (tender, lot); null when no "
        "release was loaded before the one served (every matching award is new).", type=["string", "null"])},
    "required": [*_awards["required"], "since"]}
