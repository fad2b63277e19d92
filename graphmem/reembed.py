"""`graphmem reembed`: move every stored embedding to another model, user by user in batches.

New vectors are staged beside the old ones; only when every embedded node has one are they
swapped in (the vector indexes rebuilt when the width changes) and the new model recorded. The
database is marked meanwhile, so no door opens it with either model half-applied; a killed run
is resumed by running the command again."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .errors import VectorSpaceMismatch
from .store import admin
from .store import embedding as store
from .store.search import forget_vector_index_probe
from .vectorspace import current, fit_vector_indexes

EMBEDDING, SWAPPING = "embedding", "swapping"


@dataclass
class ReembedReport:
    model_from: str
    model_to: str
    users: int = 0
    embedded: int = 0  # nodes embedded by this run (a resumed run skips the staged ones)
    swapped: int = 0
    indexes_rebuilt: bool = False
    nothing_to_do: bool = False


Progress = Callable[[str, int, int], None] | None


def reembed(graph, target, *, batch: int = 256, on_progress: Progress = None) -> ReembedReport:
    """Re-embed every embedded node with `target` (an Embedder). `on_progress(phase, done,
    total)` follows the embedding and the swap."""
    space = current(graph, target)
    report = ReembedReport(space.model, target.name)
    if space.target_model is None and (space.model, space.dimensions) == (target.name,
                                                                          target.dimensions):
        report.nothing_to_do = True
        return report
    users = admin.all_user_ids(graph)
    report.users = len(users)
    if space.target_model is not None and space.target_model != target.name:
        _discard_other_run(graph, space, users, batch)
    if space.phase != SWAPPING:
        _stage(graph, target, users, batch, report, on_progress)
    _swap_in(graph, target, users, batch, report, on_progress)
    return report


def _discard_other_run(graph, space, users: list[str], batch: int) -> None:
    """An unfinished run to another model: its staged vectors go (unless it is swapping in)."""
    if space.phase == SWAPPING:
        raise VectorSpaceMismatch(
            f"a re-embedding to {space.target_model} is swapping vectors in: finish it first "
            f"(`graphmem reembed` with GRAPHMEM_EMBEDDER set to that model)")
    for user_id in users:
        while store.reembed_swap(graph, user_id, batch, discard=True):
            pass


def _stage(graph, target, users: list[str], batch: int, report: ReembedReport,
           on_progress: Progress) -> None:
    """Embed every node not staged yet beside its old vector; then mark the run swapping."""
    store.mark_target(graph, target.name, target.dimensions, EMBEDDING)
    counts = {u: store.reembed_counts(graph, u) for u in users}
    total = sum(c["pending"] + c["staged"] for c in counts.values())
    done = sum(c["staged"] for c in counts.values())
    for user_id in users:
        while rows := store.reembed_pending(graph, user_id, batch):
            vectors = target.embed_documents([r["text"] for r in rows])
            if any(len(v) != target.dimensions for v in vectors):
                raise VectorSpaceMismatch(f"{target.name} returned vectors of another width "
                                          f"than its {target.dimensions}")
            store.reembed_stage(graph, user_id, rows, vectors)
            report.embedded += len(rows)
            done += len(rows)
            if on_progress:
                on_progress(EMBEDDING, done, total)
    left = store.reembed_unknown(graph)
    if left:
        kinds = ", ".join(f"{r['nodes']} {':'.join(r['labels']) or 'unlabelled'}" for r in left)
        raise VectorSpaceMismatch(f"embedded nodes that reembed does not cover: {kinds}; "
                                  "nothing was swapped in (the old vectors are whole)")
    store.mark_target(graph, target.name, target.dimensions, SWAPPING)


def _swap_in(graph, target, users: list[str], batch: int, report: ReembedReport,
             on_progress: Progress) -> None:
    """Swap the staged vectors in (the vector indexes made anew when the width changes) and
    record the new model."""
    staged = sum(store.reembed_counts(graph, u)["staged"] for u in users)
    widths = set(store.vector_index_dimensions(graph).values())
    if widths != {target.dimensions}:
        # An index of the old width would not take the new vectors: made anew after the swap.
        store.drop_vector_indexes(graph)
        forget_vector_index_probe(graph)
        report.indexes_rebuilt = True
    for user_id in users:
        while n := store.reembed_swap(graph, user_id, batch):
            report.swapped += n
            if on_progress:
                on_progress(SWAPPING, report.swapped, staged)
    fit_vector_indexes(graph, target.dimensions)
    store.record_space(graph, target.name, target.dimensions)
