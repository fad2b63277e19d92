"""Transcript loaders: LongMemEval, LoCoMo, generic JSONL and OpenAI-style message lists.

    loader = load("chat.jsonl")          # format detected from name and content
    for transcript in loader:            # one graphmem.models.Transcript per user, streamed
        ...
    loader.report.skipped_empty_turns    # what was produced and what was left out
"""

from graphmem.loaders.common import LoadReport
from graphmem.loaders.detect import FORMATS, detect_format
from graphmem.loaders.loader import Loader, load

__all__ = ["FORMATS", "LoadReport", "Loader", "detect_format", "load"]
