"""Run a black-box sampler on a finite set of inputs and count its (binned) outputs.

Sampler convention (``bcdp audit-sampler``): ``fn(x, rng)`` returns one output for input ``x`` using
the numpy Generator ``rng``; a sampler that accepts a ``size`` keyword returns ``m`` outputs from
``fn(x, rng, size=m)`` and is then called once per chunk.  Outputs are mapped to cells either by a
declared finite output set (identity) or by bin edges e_0 < ... < e_m (cell j = [e_j, e_{j+1}); use
-inf / inf for open ends).  An output outside the declared set or the bins is an error, as is a
sampler that raises.

Reproducibility: draws of input i are made in chunks of ``CHUNK``; chunk c uses the generator
``default_rng(SeedSequence(seed, spawn_key=(i, c)))``.  The counts therefore depend only on (seed,
draws), never on how the chunks are scheduled or batched (serially here, or on a Dask cluster through
``map_chunks``).  The statistics are in :mod:`bcdp.audit.confidence`.
"""

from __future__ import annotations

import importlib
import inspect
import math
import os
import sys
from dataclasses import dataclass
from typing import Any, Callable, Hashable, Iterable, Sequence

import numpy as np

from bcdp.audit.confidence import CountAudit
from bcdp.core.errors import InvalidInputError

#: Draws per chunk (the unit of seeding and of distributed work).
CHUNK = 1 << 16
#: Largest number of draws per input accepted (the counts are int64; 1e12 draws is days of sampling).
MAX_DRAWS = 10 ** 12


def load_sampler(spec: str) -> Callable[..., Any]:
    """``module:function`` (dotted attribute path allowed after the colon), imported with the current
    directory on the import path; errors name what could not be found."""
    module_name, sep, attr = spec.partition(":")
    if not sep or not module_name or not attr:
        raise InvalidInputError(f"sampler must be given as MODULE:FUNCTION, got {spec!r}")
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        obj: Any = importlib.import_module(module_name)
    except Exception as exc:  # the user's module: any import failure is bad input
        raise InvalidInputError(f"cannot import sampler module {module_name!r}: {type(exc).__name__}: {exc}") from exc
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise InvalidInputError(f"sampler module {module_name!r} has no attribute {attr!r}")
        obj = getattr(obj, part)
    if not callable(obj):
        raise InvalidInputError(f"{spec!r} is not callable")
    return obj


def accepts_size(fn: Callable[..., Any]) -> bool:
    """True when ``fn`` takes a ``size`` keyword (or ``**kwargs``): the audit then batches."""
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return False
    return any(p.name == "size" or p.kind is inspect.Parameter.VAR_KEYWORD for p in params)


@dataclass(frozen=True)
class Binning:
    """Cells of the output: a declared finite set (``labels``) or bin edges (``edges``), not both."""

    labels: tuple[Hashable, ...] | None = None
    edges: tuple[float, ...] | None = None

    def __post_init__(self) -> None:
        if (self.labels is None) == (self.edges is None):
            raise InvalidInputError("give either the finite output set or the bin edges")
        if self.labels is not None:
            if not self.labels or len(set(self.labels)) != len(self.labels):
                raise InvalidInputError("the output set must be non-empty with distinct labels")
        else:
            e = np.asarray(self.edges, dtype=float)
            if e.ndim != 1 or len(e) < 2 or np.any(np.isnan(e)) or np.any(np.diff(e) <= 0):
                raise InvalidInputError("bin edges must be at least two increasing numbers")

    @property
    def names(self) -> tuple[Hashable, ...]:
        if self.labels is not None:
            return self.labels
        e = self.edges or ()
        return tuple(f"[{_edge(e[j])}, {_edge(e[j + 1])})" for j in range(len(e) - 1))

    def cells(self, outputs: Sequence[Any]) -> np.ndarray:
        """Cell index of every output; an output outside the set or the bins is an error."""
        if self.labels is not None:
            index = {label: j for j, label in enumerate(self.labels)}
            if isinstance(outputs, np.ndarray) and outputs.ndim == 1 and outputs.dtype != object:
                uniques, inverse = np.unique(outputs, return_inverse=True)      # numbers: vectorised
                keys = [u.item() for u in uniques]
            else:                     # tuples, strings, mixed: one output per row (a 2-d array: rows)
                items = outputs.tolist() if isinstance(outputs, np.ndarray) else list(outputs)
                keys, inverse = _unique_any([_label_key(v) for v in items])
            codes = []
            for key in keys:
                if key not in index:
                    raise InvalidInputError(f"the sampler returned {key!r}, which is not in the declared output set")
                codes.append(index[key])
            return np.asarray(codes, dtype=np.int64)[inverse]
        values = np.asarray(outputs, dtype=float).reshape(-1)
        e = np.asarray(self.edges, dtype=float)
        bad = np.isnan(values) | (values < e[0]) | (values >= e[-1])
        if np.any(bad):
            raise InvalidInputError(f"the sampler returned {values[bad][0]!r}, outside the bins [{e[0]}, {e[-1]})")
        return np.searchsorted(e, values, side="right") - 1


def _edge(v: float) -> str:
    return "inf" if v == math.inf else "-inf" if v == -math.inf else repr(float(v))


def _label_key(value: Any) -> Any:
    """An output as a declared label compares: numpy scalars and 0-d arrays as Python numbers, sequences as tuples."""
    if isinstance(value, np.generic) or (isinstance(value, np.ndarray) and value.ndim == 0):
        return value.item()
    if isinstance(value, (list, tuple, np.ndarray)):
        return tuple(_label_key(v) for v in value)
    return value


def _unique_any(arr: list[Any]) -> tuple[list[Any], np.ndarray]:
    seen: dict[Any, int] = {}
    inverse = np.fromiter((seen.setdefault(v, len(seen)) for v in arr), dtype=np.int64, count=len(arr))
    return list(seen), inverse


def chunk_plan(n_inputs: int, draws: int) -> list[tuple[int, int, int]]:
    """(input index, chunk index, draws in the chunk) for every chunk, in a fixed order."""
    if isinstance(draws, bool) or not isinstance(draws, int) or not 1 <= draws <= MAX_DRAWS:
        raise InvalidInputError(f"draws per input must be an integer in [1, {MAX_DRAWS}], got {draws!r}")
    full, rest = divmod(draws, CHUNK)
    sizes = [CHUNK] * full + ([rest] if rest else [])
    return [(i, c, m) for i in range(n_inputs) for c, m in enumerate(sizes)]


def run_chunk(fn: Callable[..., Any], x: Any, i: int, c: int, m: int, seed: int, binning: Binning,
              batched: bool) -> np.ndarray:
    """Counts per cell of ``m`` draws of ``fn`` at input ``x`` with the generator of chunk (i, c)."""
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(i, c)))
    try:
        out = fn(x, rng, size=m) if batched else [fn(x, rng) for _ in range(m)]
    except Exception as exc:  # the user's sampler: any failure is reported as bad input
        raise InvalidInputError(f"the sampler raised {type(exc).__name__} at input {x!r}: {exc}") from exc
    cells = binning.cells(out)
    if len(cells) != m:
        raise InvalidInputError(f"the sampler returned {len(cells)} outputs for size={m} at input {x!r}")
    return np.bincount(cells, minlength=len(binning.names)).astype(np.int64)


def sample_counts(fn: Callable[..., Any], inputs: Sequence[Any], binning: Binning, draws: int, seed: int,
                  *, map_chunks: Callable[[Callable[..., np.ndarray], list[tuple]], Iterable[np.ndarray]] | None = None,
                  progress: bool = False) -> CountAudit:
    """Draw ``draws`` outputs per input and count them per cell (see the module docstring)."""
    if not inputs:
        raise InvalidInputError("the input set is empty")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise InvalidInputError(f"seed must be a non-negative integer, got {seed!r}")
    plan = chunk_plan(len(inputs), draws)
    batched = accepts_size(fn)
    tasks = [(fn, inputs[i], i, c, m, seed, binning, batched) for i, c, m in plan]
    if map_chunks is None:
        results: Iterable[np.ndarray] = (run_chunk(*t) for t in tasks)
    else:
        results = map_chunks(run_chunk, tasks)
    if progress:
        from tqdm import tqdm

        results = tqdm(results, total=len(tasks), desc="sampling", unit="chunk", file=sys.stderr)
    counts = np.zeros((len(inputs), len(binning.names)), dtype=np.int64)
    for (i, _, _), got in zip(plan, results):
        counts[i] += got
    return CountAudit(tuple(inputs), binning.names, counts, np.full(len(inputs), draws, dtype=np.int64))


def dask_chunk_mapper(address: str) -> Callable[[Callable[..., np.ndarray], list[tuple]], Iterable[np.ndarray]]:
    """A ``map_chunks`` running the chunks on a Dask cluster (``dask.distributed``): ``address`` is a
    scheduler address (``tcp://host:8786``) or ``"local"`` for a cluster of local processes.  The
    sampler's module is shipped to the workers by value (cloudpickle) unless it is installed there;
    bcdp and the sampler's own dependencies must be installed on the workers.  Results come back in
    the plan's order, so the counts equal a serial run's (same seed, same draws)."""
    try:
        from distributed import Client, LocalCluster
    except ImportError as exc:
        raise InvalidInputError("--scheduler needs dask.distributed: pip install 'bcdp-reference[dask]'") from exc

    def mapper(fn: Callable[..., np.ndarray], tasks: list[tuple]) -> Iterable[np.ndarray]:
        import cloudpickle

        sampler = tasks[0][0] if tasks else None
        module = sys.modules.get(getattr(sampler, "__module__", "") or "")
        if module is not None and module.__name__ not in ("__main__", "builtins") and \
                not module.__name__.startswith(("bcdp.", "numpy")):
            cloudpickle.register_pickle_by_value(module)
        cluster = LocalCluster(processes=True, threads_per_worker=1, dashboard_address=None) \
            if address == "local" else None
        try:
            client = Client(cluster if cluster is not None else address, timeout="30s")
        except (OSError, TimeoutError) as exc:
            if cluster is not None:
                cluster.close()
            raise InvalidInputError(f"cannot reach the Dask scheduler at {address!r}: {exc}") from exc
        try:
            futures = client.map(_run_task, [(fn, t) for t in tasks], pure=False)
            for future in futures:
                yield future.result()
        finally:
            client.close()
            if cluster is not None:
                cluster.close()

    return mapper


def _run_task(job: tuple[Callable[..., np.ndarray], tuple]) -> np.ndarray:
    fn, task = job
    return fn(*task)
