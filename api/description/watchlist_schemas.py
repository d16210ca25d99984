"""The answers of the watchlist endpoints: a watchlist, its list, and its new awards."""

from __future__ import annotations

from typing import Any

from api.description.award_schemas import AUTHORITY_TYPE, PARTY_ID
from api.description.schema_types import amount, count, envelope, instant, obj, plate, prop, sector_id, text
from store.reference.lists import procedures

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
WATCHLIST_SCHEMAS["Tender"] = obj({
    "tenderId": text("The tender's İKN (e.g. `2024/123456`): search it on EKAP to find the notice."),
    "tenderDate": text("The tender's date.", format="date"),
    "tenderName": text("The tender's name (İhale Adı), where the release has it."),
    "procedure": text("Procedure id (/procedures).", enum=list(procedures())),
    "sector": sector_id("The tender's sector"),
    "authority": obj({"id": PARTY_ID, "name": text("The authority's name as recorded."), "type": AUTHORITY_TYPE,
                      "province": plate("Province: the authority's province")}, description="The buying authority."),
    "estimatedCost": amount("The tender's estimated cost"),
    "lots": prop("The tender's number of lots.", type="integer", minimum=1),
    "awardedLots": count("How many of its lots were awarded in the release (0 for a tender only announced)."),
}, optional=("tenderName",), description="One tender of the release, announced or awarded.")
WATCHLIST_SCHEMAS["WatchlistPage"] = envelope("Watchlist")
for _item, _what in (("Award", "its awards hold none of these (tender, lot)"),
                     ("Tender", "it holds none of these tenders")):
    _page = envelope(_item)
    WATCHLIST_SCHEMAS[f"Watchlist{_item}Page"] = {
        **_page, "properties": {**_page["properties"], "since": prop(
            f"The release the items are new since: {_what}; null when no release was loaded before the one "
            "served (every matching item is new).", type=["string", "null"])},
        "required": [*_page["required"], "since"]}
