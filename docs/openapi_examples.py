"""Record the OpenAPI document's examples from the demo data: `.venv/bin/python docs/openapi_examples.py`.

It loads the synthetic demo release and the news sample into a throwaway database (as `gosterge demo
--load-only` does), calls every operation the document lists (and so every one added later) with a
demo key, provokes each documented problem, and writes the answers to api/data/openapi-examples.json,
which api/description/examples.py places in the document. Run it again after adding or changing an operation;
tests/api/test_openapi.py fails while an operation has no example or an example no longer fits its schema.
"""

from __future__ import annotations

import email
import json
import os
import re
import sys
import tempfile
import time
from datetime import UTC, datetime
from email import policy
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "api" / "data" / "openapi-examples.json"
SHOWN_ITEMS = 3  # lists that are not paged (the reference lists) are cut to their first items
JSON_TYPES = ("application/json", "application/geo+json")
# Operations that need more than a demo key to answer: their query, body or path values.
QUERIES = {"list_top_authorities": {"province": "6"}, "list_top_contractors": {"province": "34"},
           "search_authorities": {"q": "ankara"}, "search_contractors": {"q": "insaat"},
           "list_award_items": {"province": "34", "period": "2024"},
           "list_discount_benchmark_items": {"sector": "23,13", "procedure": "open", "period": "2024"}}
BODIES = {"create_api_key": {"apis": ["finance-news"], "credits": 1000, "rate": "60/minute", "label": "analyst"},
          "top_up_api_key": {"credits": 500}}


def described(schema: dict[str, Any]) -> bool:
    """Whether a body's schema says what it holds; the OpenAPI document's own (`type: object`) does not, and
    an example of it would be the whole document again."""
    return "$ref" in schema or "properties" in schema


def shorten(value: Any) -> Any:
    """Long lists cut to their first items, and boundary rings to a few positions, to keep the document small."""
    if isinstance(value, dict):
        if value.get("type") in ("Polygon", "MultiPolygon"):
            polygons = value["coordinates"] if value["type"] == "MultiPolygon" else [value["coordinates"]]
            rings = [[ring[:4] + [ring[0]] for ring in polygon[:1]] for polygon in polygons[:1]]
            return {**value, "coordinates": rings if value["type"] == "MultiPolygon" else rings[0]}
        return {k: shorten(v[:SHOWN_ITEMS] if k == "items" and isinstance(v, list) else v) for k, v in value.items()}
    if isinstance(value, list):
        return [shorten(v) for v in value]
    return value


class Recorder:
    """A demo app, its keys, and the answers recorded so far."""

    def __init__(self, work: Path):
        from api import create_app
        from loaders.news.sample import load_sample
        from loaders.procurement.generate import generate_release
        from loaders.procurement.load import load_release
        from store.schema import upgrade

        self.work = work
        self.app = create_app({"DATABASE_URL": f"sqlite:///{work / 'examples.db'}", "DEFAULT_RATE": "1000/minute",
                               "UPLOAD_DIR": str(work / "uploads"), "PUBLIC_BASE_URL": "http://localhost"})
        upgrade(self.app.extensions["gosterge.engine"])
        self.sessions = self.app.extensions["gosterge.sessions"]
        demo = generate_release("demo", seed=2026, out=work / "demo.zip")
        self.release_id = load_release(demo, self.sessions, uploaded_by="demo").release_id
        load_sample(self.sessions)
        self.client = self.app.test_client()
        self.admin = self.key(admin=True)
        self.operations: dict[str, dict[str, Any]] = {}
        self.problems: dict[str, Any] = {}

    def key(self, *, apis=("finance-news", "public-procurement"), credits=1_000_000, rate="1000/minute",
            admin=False, label="examples") -> str:  # noqa: ANN001
        from store.db import session_scope
        from store.keys import create_key

        with session_scope(self.sessions) as session:
            _, key = create_key(session, apis=list(apis), credits=credits, rate=rate, now=datetime.now(UTC),
                                is_admin=admin, label=label)
        return key

    def key_id(self, key: str) -> int:
        body = self.client.get("/v1/admin/keys", headers=self.auth(self.admin)).get_json()
        return next(k["id"] for k in body["items"] if key.startswith(k["prefix"]))

    @staticmethod
    def auth(key: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {key}"}

    def record(self, operation_id: str, request: str, response) -> None:  # noqa: ANN001
        if response.status_code >= 300 or response.mimetype not in JSON_TYPES:
            raise SystemExit(f"{request}: {response.status_code} {response.get_data(as_text=True)[:300]}")
        self.operations.setdefault(operation_id, {})[str(response.status_code)] = {
            "summary": f"{request} on the demo data", "value": shorten(response.get_json())}

    def problem(self, response) -> None:  # noqa: ANN001
        body = json.loads(response.get_data(as_text=True))
        self.problems[body["type"].rsplit("/", 1)[1]] = body


def prepare(rec: Recorder) -> dict[str, Any]:
    """The answers that need earlier steps: an upload, and a sign-up approved through its e-mail."""
    from loaders.procurement.generate import generate_release

    upload = generate_release("tiny", seed=7, out=rec.work / "upload.zip")
    with open(upload, "rb") as handle:
        response = rec.client.post("/v1/admin/releases", headers=rec.auth(rec.admin),
                                   data={"file": (handle, "2026-W48.zip")}, content_type="multipart/form-data")
    rec.record("upload_release", "POST /v1/admin/releases", response)
    upload_id = response.get_json()["id"]
    for _ in range(600):
        status = rec.client.get(f"/v1/admin/releases/uploads/{upload_id}", headers=rec.auth(rec.admin)).get_json()
        if status["status"] != "running":
            break
        time.sleep(0.2)
    from store.db import session_scope
    from store.releases import activate_release

    with session_scope(rec.sessions) as session:  # the examples of the statistics come from the demo release
        activate_release(session, rec.release_id)
    signup = rec.client.post("/v1/accounts", json={"email": "analyst@example.com", "apis": ["finance-news"]})
    rec.record("register", "POST /v1/accounts", signup)
    poll_url = signup.get_json()["poll_url"]
    poll_path = poll_url[poll_url.index("/v1/"):]
    rec.record("poll_request", "GET /v1/accounts/{request_id}", rec.client.get(poll_path))
    mail = email.message_from_bytes(next((rec.work / "outbox").glob("*.eml")).read_bytes(), policy=policy.default)
    token = re.search(r"token=([A-Za-z0-9_-]+)", mail.get_body(("plain",)).get_content()).group(1)
    request_id = signup.get_json()["id"]
    rec.client.post(f"/v1/accounts/{request_id}/decision", data={"token": token, "action": "approve"})
    watchlist = rec.client.post("/v1/public-procurement/watchlists", headers=rec.auth(rec.admin), json={
        "name": "Ankara, large contracts", "filters": {"province": "6", "minValue": 100000},
        "notify": "analyst@example.com"})
    rec.record("create_watchlist_item", "POST /v1/public-procurement/watchlists", watchlist)
    spare = [rec.key_id(rec.key(apis=["finance-news"], credits=10, label=f"spare {n}")) for n in (1, 2)]
    article = rec.client.get("/v1/finance-news/articles?limit=1", headers=rec.auth(rec.admin)).get_json()
    # The parties with the most value in the country have the fullest profiles.
    top = {kind: rec.client.get(f"/v1/public-procurement/top-{kind}?limit=1", headers=rec.auth(rec.admin)).get_json()
           for kind in ("authorities", "contractors")}
    return {"paths": {"id": article["items"][0]["id"], "upload_id": upload_id, "request_id": request_id,
                      "release_id": rec.release_id, "authority_id": top["authorities"]["items"][0]["authorityId"],
                      "contractor_id": top["contractors"]["items"][0]["contractorId"],
                      "watchlist_id": watchlist.get_json()["id"]},
            "key_ids": {"revoke_api_key": spare[0], "top_up_api_key": spare[1]},
            "poll": {"token": poll_path.split("token=")[1]}}


def call_every_operation(rec: Recorder, document: dict[str, Any], state: dict[str, Any]) -> None:
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            operation_id = operation["operationId"]
            successes = [s for s, r in operation["responses"].items() if s.startswith("2")
                         and any(m in JSON_TYPES and described(c["schema"]) for m, c in r.get("content", {}).items())]
            if not successes or (operation_id in rec.operations and method == "post"):
                continue  # HTML pages, and the answers prepare() recorded
            values = {**state["paths"], "key_id": state["key_ids"].get(operation_id)}
            url = re.sub(r"\{(\w+)\}", lambda m, values=values: str(values[m.group(1)]), path)
            query = dict(QUERIES.get(operation_id, {}))
            names = {p["name"] for p in operation.get("parameters", [])}
            if "limit" in names:
                query["limit"] = "2"
            if operation_id == "poll_request":
                query.update(state["poll"])
            headers = rec.auth(rec.admin) if operation.get("security") != [] else {}
            response = rec.client.open(url, method=method.upper(), query_string=query, headers=headers,
                                       json=BODIES.get(operation_id))
            shown = "&".join(f"{k}={v}" for k, v in query.items() if k != "token")
            shown = f"{path}?{shown}" if shown else path
            rec.record(operation_id, f"{method.upper()} {shown}", response)


def provoke_problems(rec: Recorder) -> None:
    """One answer of every documented problem, from the app itself."""
    from api.errors import store_problem
    from api.problems import Conflict, render_problem
    from store.errors import StoreAuthError, StoreError, StoreTimeoutError

    paid = "/v1/public-procurement/competition-indices"
    client, admin = rec.client, rec.auth(rec.admin)
    rec.problem(client.get(f"{paid}?dimension=district&period=1999", headers=admin))
    rec.problem(client.get(paid))
    rec.problem(client.get(paid, headers=rec.auth(rec.key(credits=0))))
    rec.problem(client.get(paid, headers=rec.auth(rec.key(apis=["finance-news"]))))
    rec.problem(client.get("/v1/finance-news/articles/fed-0000000000000000", headers=admin))
    poll = rec.operations["poll_request"]["200"]["value"]
    assert poll["status"] == "approved"
    rec.problem(client.post("/v1/accounts", data="x" * 20_000, content_type="application/json"))
    # A body the server's deadline cut (api/transport/bodydeadline.py marks it so; no socket in a test client).
    rec.problem(client.post("/v1/accounts", json={}, environ_overrides={"gosterge.body_refused": "late"}))
    rec.problem(client.post("/v1/accounts", data="email=a@b.c", content_type="text/plain"))
    # A byte range past the end of a release file: 416.
    tables = client.get("/v1/public-procurement/downloads", headers=admin).get_json()["items"][0]
    rec.problem(client.get(tables["url"].removeprefix("http://localhost"), headers={**admin, "Range": "bytes=999999999-"}))
    slow = rec.auth(rec.key(rate="1/hour"))
    client.get(paid, headers=slow)
    rec.problem(client.get(paid, headers=slow))
    with rec.app.test_request_context():
        for error in (StoreError("unreachable"), StoreAuthError("refused"), StoreTimeoutError("timed out")):
            rec.problem(render_problem(store_problem(error)))
        # An upload while another loads (its id is made up: the demo's load is not an upload).
        running = "/v1/admin/releases/uploads/3f9c2a1b7d4e8f60"
        rec.problem(render_problem(Conflict("Upload 3f9c2a1b7d4e8f60 is still loading; upload again once it has "
                                            "finished.", uploadId=running.rsplit("/", 1)[1], statusUrl=running)))


def gone_problem(rec: Recorder, state: dict[str, Any]) -> None:
    """The poll after the key was handed out: 410."""
    rec.problem(rec.client.get(f"/v1/accounts/{state['paths']['request_id']}", query_string=state["poll"]))


def not_ready_problem(rec: Recorder) -> None:
    """The readiness probe of a server whose store holds no release yet: 503."""
    from api import create_app
    from store.schema import upgrade

    empty = create_app({"DATABASE_URL": f"sqlite:///{rec.work / 'empty.db'}", "UPLOAD_DIR": str(rec.work / "uploads")})
    upgrade(empty.extensions["gosterge.engine"])
    rec.problem(empty.test_client().get("/v1/ready"))
    empty.extensions["gosterge.engine"].dispose()


def main() -> int:
    with tempfile.TemporaryDirectory() as work:
        os.environ["GOSTERGE_VAR_DIR"] = work  # the approval mail goes to its outbox (api/mail.py)
        sys.path.insert(0, str(ROOT))
        rec = Recorder(Path(work))
        state = prepare(rec)
        document = rec.client.get("/v1/openapi.json").get_json()
        call_every_operation(rec, document, state)
        gone_problem(rec, state)
        provoke_problems(rec)
        not_ready_problem(rec)
        rec.app.extensions["gosterge.engine"].dispose()
    examples = {"operations": dict(sorted(rec.operations.items())), "problems": dict(sorted(rec.problems.items()))}
    OUT.write_text(json.dumps(examples, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"{len(rec.operations)} operations and {len(rec.problems)} problems recorded in {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
