"""One vector space per database: the model and width of every stored embedding are recorded
in it, and graphmem refuses to mix another model's vectors in (`graphmem reembed` migrates)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .errors import VectorSpaceMismatch
from .store import embedding as store
from .store.search import forget_vector_index_probe

if TYPE_CHECKING:
    from .db import Graph
    from .embed import Embedder

# Before graphmem recorded its model every stored vector was MiniLM's.
LEGACY_MODEL, LEGACY_DIMENSIONS = "all-MiniLM-L6-v2", 384


@dataclass(frozen=True)
class VectorSpace:
    model: str
    dimensions: int
    target_model: str | None = None  # an unfinished re-embedding
    target_dimensions: int | None = None
    phase: str | None = None  # embedding | swapping


def recorded(graph: Graph) -> VectorSpace | None:
    row = store.recorded_space(graph)
    if row is None:
        return None
    return VectorSpace(row["model"], int(row["dimensions"]), row["target_model"],
                       row["target_dimensions"], row["phase"])


def current(graph: Graph, embedder: Embedder) -> VectorSpace:
    """The recorded space; recorded first where nothing is: a database holding vectors then
    holds MiniLM's, an empty one takes `embedder`'s (its vector indexes made that wide)."""
    space = recorded(graph)
    if space is not None:
        return space
    if store.any_embedded(graph):
        store.record_space(graph, LEGACY_MODEL, LEGACY_DIMENSIONS)
    else:
        fit_vector_indexes(graph, embedder.dimensions)
        store.record_space(graph, embedder.name, embedder.dimensions)
    space = recorded(graph)
    assert space is not None
    return space


def fit_vector_indexes(graph: Graph, dimensions: int) -> bool:
    """Make the vector indexes `dimensions` wide (rebuilt only when they are not); True if rebuilt."""
    widths = set(store.vector_index_dimensions(graph).values())
    if widths == {dimensions}:
        return False
    store.create_vector_indexes(graph, dimensions, user_filter=store.server_filters_vectors(graph))
    forget_vector_index_probe(graph)
    graph.run_statement("CALL db.awaitIndexes(300)")
    return True


def require(graph: Graph, embedder: Embedder) -> VectorSpace:
    """The database's space when it is `embedder`'s; else VectorSpaceMismatch, one line saying
    to run `graphmem reembed` (or to configure the model that wrote the vectors)."""
    space = current(graph, embedder)
    if space.target_model:
        raise VectorSpaceMismatch(
            f"a re-embedding of this database to {space.target_model} is unfinished: run "
            f"`graphmem reembed` with GRAPHMEM_EMBEDDER set to that model to finish it")
    if (space.model, space.dimensions) != (embedder.name, embedder.dimensions):
        raise VectorSpaceMismatch(
            f"this database's vectors are {space.model} ({space.dimensions}-d) but the configured "
            f"embedder is {embedder.name} ({embedder.dimensions}-d): run `graphmem reembed` to "
            f"re-embed the memory with it, or set GRAPHMEM_EMBEDDER to the model that wrote them")
    return space
