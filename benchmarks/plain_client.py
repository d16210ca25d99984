"""Every answer's own latency, as a client of the API sees it: one process per kept-alive connection,
each sending its next request as soon as it has the last answer, timing each from the request's first
byte sent to the answer's last byte read.

wrk's latencies are corrected for coordinated omission: an answer slower than twice a connection's mean
interval is counted again at every interval below it, as a client sending at a fixed rate would have
waited. That is the right figure for such a client, but it lets a few long waits a second set the
p99 of a closed loop. These are the same runs' answers counted once each; benchmarks/api_load.py
prints both.

    .venv/bin/python benchmarks/plain_client.py URL [--key KEY] [--connections 2] [--seconds 5]
"""

from __future__ import annotations

import argparse
import multiprocessing
import socket
import time
from typing import Any
from urllib.parse import urlsplit


def _read_answer(sock: socket.socket) -> tuple[bool, float]:
    """Read one answer with a Content-Length: whether the server closes the connection after it, and
    when its first byte came (time.perf_counter)."""
    data, first = b"", 0.0
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError("the server closed the connection before answering")
        first = first or time.perf_counter()
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    fields = {}
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        fields[name.strip().lower()] = value.strip().lower()
    if b"content-length" not in fields:
        raise ValueError("an answer without Content-Length: this client reads only those")
    length = int(fields[b"content-length"])
    while len(body) < length:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError("the server closed the connection inside an answer")
        body += chunk
    return fields.get(b"connection") == b"close", first


def _connection(host: str, port: int, request: bytes, seconds: float, start: Any, out: Any) -> None:
    latencies: list[tuple[float, float]] = []  # (whole answer, until its first byte)
    sock: socket.socket | None = None
    start.wait()
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        if sock is None:  # the sync worker closes after each answer; connecting is not timed, as in wrk
            sock = socket.create_connection((host, port))
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        began = time.perf_counter()
        sock.sendall(request)
        closes, first = _read_answer(sock)
        latencies.append((time.perf_counter() - began, first - began))
        if closes:
            sock.close()
            sock = None
    if sock is not None:
        sock.close()
    out.put(latencies)


SLOW_SECONDS = 0.004


def quantiles_ms(ordered: list[float]) -> dict[str, float]:
    """p50, p99, p99.9 and the maximum of sorted seconds, in ms (each the value at its rank, rounded down)."""
    n = len(ordered)
    at = {name: ordered[min(n - 1, int(share * n))] * 1000 for name, share in (("p50", 0.5), ("p99", 0.99), ("p999", 0.999))}
    return {**at, "max": ordered[-1] * 1000}


def run(url: str, key: str | None, connections: int, seconds: float) -> dict[str, float]:
    """Answers per second and p50, p99, p99.9 and maximum latency in ms, each answer counted once; how
    many answers took over SLOW_SECONDS, and how many of those spent most of it before their first byte
    (the request's way in, the worker's turn, the answer's way out) rather than between their first
    and last (the answer's writing)."""
    parts = urlsplit(url)
    target = parts.path + (f"?{parts.query}" if parts.query else "")
    headers = f"Host: {parts.netloc}\r\n" + (f"Authorization: Bearer {key}\r\n" if key else "")
    request = f"GET {target} HTTP/1.1\r\n{headers}\r\n".encode("latin-1")
    context = multiprocessing.get_context("fork")
    start, out = context.Event(), context.Queue()
    processes = [context.Process(target=_connection, args=(parts.hostname, parts.port, request, seconds, start, out))
                 for _ in range(connections)]
    for process in processes:
        process.start()
    start.set()
    answers = [answer for _ in processes for answer in out.get(timeout=seconds + 60)]
    latencies = sorted(whole for whole, _ in answers)
    slow = [(whole, first) for whole, first in answers if whole > SLOW_SECONDS]
    for process in processes:
        process.join()
    return {"rps": len(latencies) / seconds, **quantiles_ms(latencies),
            "slow": len(slow), "slow_before_first_byte": sum(1 for whole, first in slow if first > whole / 2)}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("url")
    parser.add_argument("--key")
    parser.add_argument("--connections", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=5)
    args = parser.parse_args()
    result = run(args.url, args.key, args.connections, args.seconds)
    print(" ".join(f"{name}={value:.3f}" for name, value in result.items()))


if __name__ == "__main__":
    main()
