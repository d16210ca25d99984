"""The ceiling: a bare Flask endpoint returning a constant JSON body, under the same server."""

from flask import Flask, Response

BODY = '{"items":[],"total":0,"next_cursor":null}'


def create_app() -> Flask:
    app = Flask(__name__)

    @app.get("/v1/bare")
    def bare() -> Response:
        return Response(BODY, mimetype="application/json")

    return app
