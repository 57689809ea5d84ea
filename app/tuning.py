"""The process tuned for hundreds of tables: what the client changes in CPython, glibc
and discord.py so that their costs at that scale leave the event loop free.

Split from ``app.client`` along that line: the client wires the store, the service
and the presenter and answers Discord's events; everything here is a measured answer
to a cost seen under ``bench.load_bench`` (the collector's pauses, image buffers'
page faults, discord.py's scans of its rate-limit buckets, the cycle every
interaction makes), each with the measurement that chose it, and none of it changes
what the bot does. The client applies it at start (``ShengjiBot.__init__``,
``ShengjiBot.setup_hook``) and hands ``FinishedInteractions`` every interaction.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import sys
import time

import discord

#: The garbage collector's thresholds for the bot's process (CPython's are 700, 10, 10).
#: With hundreds of live tables the heap holds millions of objects and the bot makes
#: cyclic garbage at every play (futures, exceptions, discord.py's payloads), so under
#: the default thresholds a full collection ran every 2-3 s, each pausing the event loop
#: 300-430 ms: 12% of the bot's CPU and most of the acknowledgements' p99 at 400 tables
#: (bench/load_bench.py). Rarer young collections let short-lived objects die before
#: they are promoted, so the older generations fill slowly: one full collection in the
#: same 90 s; memory per table about a third higher.
#:
#: Since then the hot paths make no cyclic garbage (``FinishedInteractions``, and
#: ``tests/cogs/test_cyclic_garbage.py``): 65,000 objects in 5 s at 150 tables before,
#: none after; the collections find nothing and are paid for by the heap's growth alone.
#: Measured again then (150 tables, ``--think 0``, a busy machine, 90 s; collections
#: pausing the event loop's thread over 5 ms, and their CPU): these thresholds, 38-49
#: (1.1-1.3 s); CPython's (700, 10, 10): 817 (4.5 s, 14 full collections); (2,000, 20,
#: 10): 285 (2.9 s); (25,000, 20, 20): 13 (0.66 s); (50,000, 10, 20): 12 (0.47 s, the
#: longest 360 ms of wall time on that machine). Smaller young collections promote
#: objects still in use, which the older ones then traverse; larger ones looked cheaper
#: but were measured once, on a loaded machine: worth trying on a quiet one before a
#: change. (``gc.get_stats`` counts 150-200 young collections in every such run: most
#: are the imports', under CPython's thresholds, before ``setup_hook``.) Freezing the
#: heap after start-up (``gc.freeze``) changed nothing that mattered.
#:
#: On a quiet machine at 400 tables (1 Dec 02:45-03:08): the young generation holds
#: 65,000-134,000 objects when it is collected, not 10,000 (the count that triggers a
#: collection goes down whenever any tracked object is freed, old ones included), so a
#: young collection took 30-80 ms: 5.9 s of CPU in 90 s, 150 pauses over 5 ms. Young
#: collections five times rarer, (50,000, 10, 20): 1.6 s, 14 such pauses (the objects
#: surviving to be traversed are fewer, having had more time to die), and over six runs
#: alternating 4.2-4.8 ms of CPU per interaction and an ack p99 of 175-290 ms against
#: 4.9-5.3 ms and 360-830 ms; memory per table 5% higher. (100,000, 10, 20) was no
#: better (4.8 ms, 290 ms).
GC_THRESHOLDS = (50_000, 10, 20)
#: glibc's mallopt parameters: blocks up to 8 MB from the heap, not fresh mmap pages
M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3
HEAP_BLOCKS = 8 * 1024 * 1024


def keep_big_blocks() -> bool:
    """Serve allocations up to ``HEAP_BLOCKS`` from the heap and keep freed ones.

    glibc maps each block over its threshold (128 KB at first) as fresh pages and
    unmaps it when freed, so every image-sized buffer cost page faults on each use.
    Only on glibc (a no-op elsewhere); returns whether it applied.
    """
    try:
        libc = ctypes.CDLL(_libc_name())
        mallopt = libc.mallopt
    except (OSError, AttributeError, TypeError):
        return False
    return bool(mallopt(M_MMAP_THRESHOLD, HEAP_BLOCKS)) and bool(
        mallopt(M_TRIM_THRESHOLD, 2 * HEAP_BLOCKS)
    )


@functools.cache
def _libc_name() -> str | None:
    """Looked up once a process: ``find_library`` runs ``ldconfig -p`` in a new process
    at each call, and every client started in the process (a restart, each test's bot)
    asked again (287 such processes in one run of the tests)."""
    return ctypes.util.find_library("c")


#: seconds between discord.py's sweeps of its idle rate-limit buckets (see below)
BUCKET_SWEEP_EVERY = 60.0


def sweep_buckets_now_and_then(
    http: discord.http.HTTPClient, every: float = BUCKET_SWEEP_EVERY
) -> None:
    """Let discord.py forget its idle rate-limit buckets once a minute, not at every new one.

    discord.py keeps a bucket per route and channel (every DM channel, thread and message
    route) and, once it holds 256, scans all of them for ones idle five minutes each time
    it makes a new bucket. At hundreds of tables that is thousands of buckets scanned a
    few times a second: 6% of the bot's CPU under the load benchmark at 200 tables
    (cProfile). A bucket is forgotten only after five idle minutes anyway, so sweeping
    once a minute forgets the same buckets, a minute later at most.
    """
    sweep = http._try_clear_expired_ratelimits
    last = time.monotonic()

    def now_and_then() -> None:
        nonlocal last
        now = time.monotonic()
        if now - last >= every:
            last = now
            sweep()

    http._try_clear_expired_ratelimits = now_and_then  # type: ignore[method-assign]


#: seconds between looks for finished interactions; how long one is watched at most
INTERACTION_SWEEP_EVERY = 1.0
INTERACTION_WATCHED_AT_MOST = 15 * 60.0  # an interaction's token lasts 15 minutes
#: references to an interaction nothing uses any more, as counted in ``_unused``: its
#: entry in the watch list, ``_unused``'s argument, ``getrefcount``'s argument, and its
#: response's ``_parent``
_UNUSED_REFS = 4
#: and to that response: the interaction's cache, ``_unused``'s local, ``getrefcount``'s
_UNUSED_RESPONSE_REFS = 3


def _caches_response() -> bool:
    """Whether discord.py still keeps an interaction's response where ``_unused`` looks."""
    prop = vars(discord.Interaction).get("response")
    return isinstance(prop, discord.utils.CachedSlotProperty) and prop.name == "_cs_response"


class FinishedInteractions:
    """Lets each interaction go by reference counting once nothing uses it.

    discord.py's ``Interaction`` caches its ``InteractionResponse``, which points back
    at it (``_parent``): a cycle, so every interaction and all it holds (its member,
    user, namespace, webhook and the payload's JSON: about 860 objects) stayed until
    the garbage collector found them, 200 interactions a second at 400 tables: most
    of the work of the collections that paused the event loop for up to half a second
    (``GC_THRESHOLDS``). The client hands this every interaction it receives; once a
    second it looks at those it holds. One referenced only by its response, the
    response only by it, can never be used again: the response is dropped from the
    interaction's cache and both go at once. One still in use (its handler running,
    an ephemeral panel kept to refresh, one whose ``original_response`` was fetched)
    is looked at again, and after ``INTERACTION_WATCHED_AT_MOST`` left to the
    collector. Reference counts are exact in CPython, so nothing in use is touched;
    should discord.py stop caching the response in ``_cs_response`` (checked at
    start, and by ``tests/cogs/test_cyclic_garbage.py``) this does nothing.
    """

    def __init__(self, every: float = INTERACTION_SWEEP_EVERY) -> None:
        self.every = every
        self.enabled = _caches_response()
        self._watched: list[tuple[float, discord.Interaction]] = []
        self._last = time.monotonic()

    def watch(self, interaction: discord.Interaction) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        self._watched.append((now, interaction))
        if now - self._last >= self.every:
            self._last = now
            self.sweep(now)

    def sweep(self, now: float) -> int:
        """Free the interactions nothing uses; how many."""
        kept: list[tuple[float, discord.Interaction]] = []
        freed = 0
        oldest = now - INTERACTION_WATCHED_AT_MOST
        for entry in self._watched:
            if _unused(entry[1]):
                del entry[1]._cs_response  # type: ignore[attr-defined]
                freed += 1
            elif entry[0] > oldest:
                kept.append(entry)
        self._watched = kept
        return freed


def _unused(interaction: discord.Interaction) -> bool:
    """Whether only its response holds ``interaction``, and only it holds that response.

    Called with an interaction held only by its entry in the watch list, and passed as
    ``entry[1]`` (see ``_UNUSED_REFS``).
    """
    response = getattr(interaction, "_cs_response", None)
    if response is None:
        return False  # no cycle to break
    return (
        sys.getrefcount(interaction) == _UNUSED_REFS
        and sys.getrefcount(response) == _UNUSED_RESPONSE_REFS
    )
