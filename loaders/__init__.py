"""Transcript loaders: LongMemEval, LoCoMo, REALTALK, JSONL, OpenAI-style message lists, ChatGPT and
Claude exports, CSV/TSV chat logs.

    loader = load("chat.jsonl")          # format detected from name and content
    for transcript in loader:            # one graphmem.models.Transcript per user, streamed
        ...
    loader.report.skipped_empty_turns    # what was produced and what was left out
"""

from graphmem.loaders.common import LoadReport
from graphmem.loaders.detect import FORMATS, detect_format
from graphmem.loaders.loader import OWNED_FORMATS, Loader, load

__all__ = ["FORMATS", "OWNED_FORMATS", "LoadReport", "Loader", "detect_format", "load"]
