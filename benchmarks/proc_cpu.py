"""The CPU time of a server's processes and of a PostgreSQL's, read from /proc (Linux).

What a process tree spent, whatever else the machine ran: the user and system time
(``utime`` and ``stime`` of ``/proc/PID/stat``) of a process and of every process
whose parent chain leads to it. ``benchmarks/server.py`` reads it before and after a
run of a known number of requests.
"""

from __future__ import annotations

import os
from pathlib import Path

PPID_FIELD, UTIME_FIELD, STIME_FIELD, CUTIME_FIELD, CSTIME_FIELD, NICE_FIELD = 1, 11, 12, 13, 14, 16
"""Fields of /proc/PID/stat after the command's closing parenthesis."""


def processes() -> dict[int, list[str]]:
    """Every live process's /proc/PID/stat fields after the command's closing parenthesis."""
    table = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                table[int(entry.name)] = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except (OSError, IndexError):
                continue  # ended meanwhile
    return table


def tree(root: int, table: dict[int, list[str]]) -> set[int]:
    """``root`` and the processes of ``table`` whose parent chain leads to it."""
    found = {root} if root in table else set()
    for pid in table:
        chain: list[int] = []
        parent = pid
        while parent in table and parent not in found and len(chain) < len(table):
            chain.append(parent)
            parent = int(table[parent][PPID_FIELD])
        if parent in found:
            found.update(chain)
    return found


def seconds(ticks: int) -> float:
    return ticks / os.sysconf("SC_CLK_TCK")


def own_ticks(fields: list[str]) -> int:
    return int(fields[UTIME_FIELD]) + int(fields[STIME_FIELD])


def server_cpu_seconds(pid: int, table: dict[int, list[str]] | None = None) -> float:
    """CPU seconds of the server's process and of its live descendants (its worker
    processes, with ``--workers``), but not of the deal stock's search process: it
    lowers its priority (``play.deal_finder``), and its background searches that fill
    the stock are not the requests' cost. ``table``: ``processes()``, read now if not given."""
    table = processes() if table is None else table
    if pid not in table:
        return 0.0
    nice = int(table[pid][NICE_FIELD])
    return seconds(
        sum(own_ticks(table[p]) for p in tree(pid, table) if int(table[p][NICE_FIELD]) <= nice)
    )


def postgres_cpu_seconds(postmaster: int, table: dict[int, list[str]] | None = None) -> float:
    """CPU seconds of a PostgreSQL: its postmaster and every live process under it
    (backends, writers), and the backends that ended (the postmaster reaped them,
    so their time is its children's time)."""
    table = processes() if table is None else table
    if postmaster not in table:
        return 0.0
    reaped = int(table[postmaster][CUTIME_FIELD]) + int(table[postmaster][CSTIME_FIELD])
    return seconds(reaped + sum(own_ticks(table[p]) for p in tree(postmaster, table)))
