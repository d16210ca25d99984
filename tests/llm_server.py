"""A real OpenAI-compatible chat-completions server on loopback that answers from a script."""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


def completion(content: str | dict) -> tuple[int, dict[str, Any]]:
    text = content if isinstance(content, str) else json.dumps(content, ensure_ascii=False)
    return 200, {"id": "chatcmpl-test", "object": "chat.completion", "model": "test-model",
                 "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": text}}]}


class ScriptedLlm:
    """Each POST to /v1/chat/completions takes the next scripted reply: (status, body) or ("sleep", s)."""

    def __init__(self, script: list[Any], default: Any = None):
        self.script = list(script)
        self.default = default  # called with the request body once the script is used up
        self.requests: list[dict[str, Any]] = []
        self.model_lists = 0  # GET /v1/models, the check made once before a run
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802
                if self.path != "/v1/models":
                    self.send_error(404)
                    return
                owner.model_lists += 1
                data = json.dumps({"object": "list", "data": [{"id": "test-model", "object": "model"}]}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_POST(self) -> None:  # noqa: N802
                length = int(self.headers.get("Content-Length", "0"))
                owner.requests.append({"path": self.path, "headers": dict(self.headers),
                                       "body": json.loads(self.rfile.read(length) or b"{}")})
                if owner.script:
                    reply = owner.script.pop(0)
                elif owner.default is not None:
                    reply = owner.default(owner.requests[-1]["body"])
                else:
                    reply = (500, {"error": "script exhausted"})
                if reply[0] == "sleep":
                    time.sleep(reply[1])
                    reply = completion("{}")
                status, body = reply
                data = json.dumps(body).encode()
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    if status == 429:
                        self.send_header("Retry-After", "0")
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client timed out first, as the time-out tests mean it to: nobody is listening

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base_url = f"http://127.0.0.1:{self.server.server_port}/v1"

    def __enter__(self) -> ScriptedLlm:
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
