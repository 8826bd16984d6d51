"""The search workers are shared fairly between addresses: one address, under any
number of cookies, never holds every worker (issue 31, item 12)."""

from __future__ import annotations

import threading
import time

import anyio

from bonanza.play.answers import ProgressReply
from bonanza.web.limits import ServerLimits
from bonanza.web.searches import SearchPool, requester

WORKERS = 2
FLOOD = 4
SEARCH_SECONDS = 0.3
WAIT = 60.0


def test_one_address_leaves_a_worker_for_the_others() -> None:
    limits = ServerLimits(
        search_workers=WORKERS, searches_per_minute=100, searches_per_address_per_minute=100,
        search_processes=False,
    )  # fmt: skip
    pool = SearchPool(limits, advisor=None, finisher=None)
    lock = threading.Lock()
    running = {"flood": 0, "most": 0}
    waited: list[float] = []

    def flood_search() -> ProgressReply:
        with lock:
            running["flood"] += 1
            running["most"] = max(running["most"], running["flood"])
        time.sleep(SEARCH_SECONDS)
        with lock:
            running["flood"] -= 1
        return ProgressReply(True)

    def other_search() -> ProgressReply:
        return ProgressReply(False)

    async def main() -> None:
        async with anyio.create_task_group() as group:
            for number in range(FLOOD):
                who = requester(f"cookie{number}", "10.0.0.1")
                group.start_soon(pool._search, who, f"flood {number}", flood_search, ProgressReply)
            await anyio.sleep(SEARCH_SECONDS / 3)  # the flood has taken what it may
            began = time.monotonic()
            await pool._search(requester("victim", "10.0.0.2"), "victim", other_search,
                               ProgressReply)  # fmt: skip
            waited.append(time.monotonic() - began)

    # In a thread of its own: the browser tests keep a loop running in this one.
    failures: list[BaseException] = []

    def run() -> None:
        try:
            anyio.run(main)
        except BaseException as error:  # handed to the test's thread
            failures.append(error)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(WAIT)
    assert not thread.is_alive() and not failures, failures
    assert running["most"] == WORKERS - 1  # the flood's share: all workers but one
    assert waited[0] < SEARCH_SECONDS / 2  # the victim did not wait behind the flood
