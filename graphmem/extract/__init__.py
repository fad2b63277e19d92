"""Fact extractors: the `Extractor` protocol and the deterministic `OfflineExtractor`."""

from .base import Extractor
from .offline import OfflineExtractor

__all__ = ["Extractor", "OfflineExtractor"]
