"""The ceiling: a bare Flask app under the same server, returning for each measured URL exactly the bytes
and content type the API returned for it (captured first by benchmarks/api_load.py).

GOSTERGE_BENCH_CAPTURES names a JSON file {"<path>?<query>": {"content_type": …, "body": …}}; without
it (or for any other URL) the app answers a constant small JSON body at /v1/bare.
"""

import json
import os

from flask import Flask, Response, request

BODY = '{"items":[],"total":0,"next_cursor":null}'


def load_captures(path: str | None) -> dict[str, tuple[bytes, str]]:
    if not path:
        return {}
    with open(path, encoding="utf-8") as handle:
        captured = json.load(handle)
    return {url: (entry["body"].encode("utf-8"), entry["content_type"]) for url, entry in captured.items()}


def create_app() -> Flask:
    app = Flask(__name__)
    captures = load_captures(os.environ.get("GOSTERGE_BENCH_CAPTURES"))

    @app.get("/v1/bare")
    def bare() -> Response:
        return Response(BODY, mimetype="application/json")

    @app.get("/<path:_path>")
    def captured(_path: str) -> Response:
        body, content_type = captures[f"{request.path}?{request.query_string.decode('latin-1')}"]
        return Response(body, content_type=content_type)

    return app
