"""CPU time read from /proc: a server's workers, the whole machine, and the database services."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path


def cpu_seconds(server: subprocess.Popen) -> float:
    """CPU time (user and system) that the server's workers have used so far."""
    ticks = os.sysconf("SC_CLK_TCK")
    children = Path(f"/proc/{server.pid}/task/{server.pid}/children").read_text().split()
    total = 0.0
    for pid in children:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
        total += (int(fields[11]) + int(fields[12])) / ticks
    return total


def machine_cpu_seconds() -> float:
    """CPU time the whole machine has used so far (every process, kernel included; idle and I/O wait not)."""
    fields = [int(value) for value in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    return (sum(fields[:8]) - fields[3] - fields[4]) / os.sysconf("SC_CLK_TCK")


SERVICES = ("postgres", "redis-server")


def services_cpu_seconds() -> float:
    """CPU time the PostgreSQL and Redis processes running now have used so far."""
    ticks, total = os.sysconf("SC_CLK_TCK"), 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:  # ended meanwhile
            continue
        name, _, rest = stat.partition("(")[2].rpartition(")")
        if name.startswith(SERVICES):
            fields = rest.split()
            total += (int(fields[11]) + int(fields[12])) / ticks
    return total
