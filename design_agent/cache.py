"""A private on-disk cache for things built from the catalogue files.

Parsing ~3,000 lines of YAML and indexing 88 tasks for matching costs about
200 ms per process; `ask` and the shell pay it at every start. The result is
pickled under `<home>/cache/`, keyed by a signature of every source file's
path, size and mtime and of design-agent's version, so any edit rebuilds it.
The cache is only an optimisation: any problem reading or writing it just
means building again.

DESIGN_AGENT_CACHE_DIR points several homes at one cache folder (the test
suite does, so that hundreds of fresh homes and the processes spawned on them
build the catalogue once): entries are keyed by their sources' paths, so homes
with different catalogue files never share an entry, and none is pruned there.
"""

from __future__ import annotations

import hashlib
import os
import pickle
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TypeVar

from design_agent import __version__
from design_agent.fsutil import write_private_bytes
from design_agent.paths import HomeLayout

T = TypeVar("T")
CACHE_ENV = "DESIGN_AGENT_CACHE_DIR"


def signature(paths: Iterable[Path]) -> str:
    """A digest of design-agent's version and each file's path, size and mtime."""
    digest = hashlib.sha256(__version__.encode())
    for path in sorted(paths):
        try:
            stat = path.stat()
        except OSError:
            continue
        digest.update(f"{path}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode())
    return digest.hexdigest()[:24]


def cached(home: HomeLayout, kind: str, key: str, build: Callable[[], T]) -> T:
    """The value cached as `kind` under `key`, or `build()` (then cached)."""
    shared = os.environ.get(CACHE_ENV)
    folder = Path(shared) if shared else home.root / "cache"
    path = folder / f"{kind}-{key}.pickle"
    try:
        with path.open("rb") as handle:
            return pickle.load(handle)  # type: ignore[no-any-return]
    except FileNotFoundError:
        pass
    except Exception:
        path.unlink(missing_ok=True)
    value = build()
    try:
        # A shared folder serves other homes too: their entries are not stale.
        for old in [] if shared else folder.glob(f"{kind}-*.pickle"):
            old.unlink(missing_ok=True)
        write_private_bytes(path, pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))
    except (OSError, pickle.PicklingError):
        pass
    return value
