"""Entity resolution within one user: surface forms map to one node by their normalised name."""

from __future__ import annotations

import re
import unicodedata

from .models import stable_id

_ARTICLES = re.compile(r"^(?:the|a|an|my|our)\s+", re.IGNORECASE)
_PUNCT = re.compile(r"[^\w\s&'-]+")
_SPACES = re.compile(r"\s+")
# "Denver, CO", "Paris, France": the part before the comma names the place.
_PLACE_QUALIFIER = re.compile(r"\s*,.*$")

SELF_NAMES = {"user", "i", "me", "myself"}


def normalise_name(name: str, type_: str = "other") -> str:
    """Lowercase, accents folded, leading article and trailing qualifiers dropped."""
    text = unicodedata.normalize("NFKD", name)
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    if type_ == "place":
        text = _PLACE_QUALIFIER.sub("", text)
    text = _PUNCT.sub(" ", text.strip())
    text = _ARTICLES.sub("", text.strip())
    text = text.replace("'s ", " ")
    return _SPACES.sub(" ", text).strip().lower()


def entity_id(user_id: str, norm_name: str) -> str:
    return stable_id("entity", user_id, norm_name)


def is_self(name: str) -> bool:
    return name.strip().lower() in SELF_NAMES
