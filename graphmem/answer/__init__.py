"""Answering: planner–reader loop with mandatory citations, or extractive answers offline."""

from .answerer import NOT_IN_MEMORY, Answer, Answerer, Citation, resolve_citations
from .cypher_read import CypherRefused, cypher_read
from .pool import EvidencePool

__all__ = ["NOT_IN_MEMORY", "Answer", "Answerer", "Citation", "CypherRefused", "EvidencePool",
           "cypher_read", "resolve_citations"]
