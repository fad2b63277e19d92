"""What each parameter of the HTTP routes and the MCP tools means, declared once: the OpenAPI
document (query, path and body fields) and the MCP tool schemas read these descriptions, so an
LLM and a developer see the same words for the same parameter, its formats and its bounds."""

from __future__ import annotations

from ..memory import (
    DEFAULT_BUDGET,
    DEFAULT_K,
    MAX_BUDGET,
    MAX_FACTS,
    MAX_K,
    MAX_PAGE,
    MODEL_FACTS,
)
from ..metadata import SCOPE_DOC
from ..predicates import ROLES, Cardinality, names

ISO = "An ISO 8601 date (2024-03-01) or datetime (2024-03-01T09:00:00Z)"

# The predicate vocabulary, read from the registry: not a fixed set (families and roles take keys).
_PLAIN = sorted(set().union(*(names(c) for c in Cardinality)))
_FAMILIES = sorted(set().union(*(names(c, keyed=True) for c in Cardinality)))


def facts_limit(default: int) -> str:
    return f"At most this many facts, 1 to {MAX_FACTS} (default {default})."


DOC = {
    "user_id": "The user whose memory is read or changed (the tenant: nothing of another user "
               "is ever read or touched).",
    "session_id": "Your id for the conversation the messages belong to; a new one starts a "
                  "session.",
    "session_filter": "Only this session (the session id the messages were sent to); omit for "
                      "every session.",
    "turn_id": "A turn's stored id (turn:…, as search results give it) or your own turn_id for "
               "the message.",
    "fact_id": "A fact's id (fact:…), as facts, timeline or search give it.",
    "node_id": "A fact id (fact:…), piece id, turn id (stored turn:… or your own turn_id), or an "
               "entity's id or name.",
    "query": "What to look for, in the user's words.",
    "question": "The question, in the user's words.",
    "question_date": (
        f"Answer as memory knew it on this date: nothing said after it counts (as if asked "
        f"then). {ISO}; omit for everything remembered. as_of is different: what was true on a "
        f"date, judged with everything said, later corrections included."),
    "as_of": (f"The world as it was on this date: the facts valid then (where the user lived on "
              f"it), whenever they were said. {ISO}; omit for now."),
    "since": f"Only facts from this date on. {ISO}.",
    "until": f"Only facts up to this date. {ISO}.",
    "predicate": (
        "Only facts of this predicate (the slot a fact fills). One of: " + ", ".join(_PLAIN)
        + "; a family member, prefix then key (" + ", ".join(_FAMILIES)
        + ": owns_count:dog, does:running, favorite_restaurant); or a person by role ("
        + ", ".join(sorted(ROLES)) + "), with <role>_event for their events."),
    "entity": "Only facts about this entity, by name (Leeds; case and accents do not matter).",
    "history": "Every version of each fact (superseded and invalid ones too), not only the "
               "current ones.",
    "k": f"How many results, 1 to {MAX_K} (default {DEFAULT_K}).",
    "preset": "The retrieval recipe (a preset of graphmem.retrieval.config): fused, the default, "
              "fuses the BM25 and dense tunnels (fused-with-graph adds the graph tunnel); the "
              "others are one tunnel alone or a baseline, for comparison.",
    "explain": "Also return the per-tunnel hits (`hits`), the full turn ranking and timings.",
    "budget": f"Planner steps the answer may take, 0 to {MAX_BUDGET} (default {DEFAULT_BUDGET}); "
              "0 answers from the first search alone.",
    "offline": "Extractive answer (the best evidence itself, labelled) even if an LLM is "
               "configured.",
    "trace": "Also return the planner's tool calls (`trace`).",
    "cursor": "The next_cursor of the previous page; omit it for the first page.",
    "page_limit": f"Items per page, 1 to {MAX_PAGE}.",
    "metadata_filter": ("Only evidence from turns whose metadata holds every one of these "
                        "key/value pairs (equal value and type). E.g. {\"agent\": \"planner\"}."),
    "agent_id": SCOPE_DOC["agent_id"],
    "run_id": SCOPE_DOC["run_id"],
    "session_time": (f"When the session started, if this call creates it (default: the first "
                     f"message's timestamp, else now), and the time of messages without a "
                     f"timestamp. {ISO}."),
    "messages": "The messages, in the order they were said.",
    "redact": "Keep the turn's place and date, replace its words by \"[redacted]\"; default "
              "false: delete it.",
    "by": "Who says the fact is wrong (the user, an agent's name, the turn id where it was "
          "said): kept with the fact.",
    "reason": "Why, in a few words: kept with the fact.",
    "time_zone": "An IANA time zone name (Europe/Berlin, America/New_York); message times "
                 "without an offset are read in it. null: UTC.",
    "format": "auto (guessed from the file name and contents), or a transcript format graphmem "
              "ingest reads.",
    "filename": "The file's name (its suffix helps auto).",
    "upload_session": "The session id, for a format without sessions.",
    "upload_session_time": f"The session's start, for a format without times. {ISO}.",
    # Facts and timeline: the same bound over every door; the default differs by reader. Over
    # HTTP a program reads them (every fact up to the bound); over MCP a model does, into its
    # context window, so fewer by default (graphmem.memory.MODEL_FACTS).
    "facts_limit": facts_limit(MAX_FACTS),
    "model_facts_limit": facts_limit(MODEL_FACTS) + " Fewer than over HTTP: what a tool returns "
                         "goes into the model's context; ask for more, up to the bound, when "
                         "needed.",
}
