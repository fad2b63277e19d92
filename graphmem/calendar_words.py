"""The calendar's words, declared once: weekdays, months and their abbreviations, seasons, the
holidays that name a day, ordinals, and how people type them in chat. The time grammar (temporal), the
rules (extract), the search (retrieval.query) and currency build their patterns and word lists
from these."""

from __future__ import annotations

from collections.abc import Iterable

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september",
          "october", "november", "december")
MONTH_ABBREVIATIONS = {"jan": 1, "feb": 2, "mar": 3, "apr": 4, "jun": 6, "jul": 7, "aug": 8,
                       "sep": 9, "sept": 9, "oct": 10, "nov": 11, "dec": 12}
# A day of the month or a rank written with digits: "the 25th", "June 3rd".
ORDINAL_SUFFIX = r"(?:st|nd|rd|th)"
ORDINAL_WORDS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
                 "ninth", "tenth", "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth",
                 "sixteenth", "seventeenth", "eighteenth", "nineteenth", "twentieth")
SEASONS = ("spring", "summer", "fall", "autumn", "winter")
# Holidays whose name is a date's name, not a thing's ("the Easter trip" is about a trip).
HOLIDAYS = ("christmas", "thanksgiving", "easter")

WEEKDAY_NUMBER = {day: i for i, day in enumerate(WEEKDAYS)}  # Monday is 0, as date.weekday()
MONTH_NUMBER = {**{name: i + 1 for i, name in enumerate(MONTHS)}, **MONTH_ABBREVIATIONS}

# How people type calendar words in chat, read as the word ("last tues", "tmrw", "2 wks ago").
CHAT_SPELLINGS = {
    "tues": "tuesday", "tue": "tuesday", "weds": "wednesday", "thurs": "thursday",
    "thur": "thursday", "thu": "thursday", "fri": "friday",
    "tmrw": "tomorrow", "tmr": "tomorrow", "tmrow": "tomorrow", "tmw": "tomorrow",
    "tomoz": "tomorrow", "2moro": "tomorrow", "2morrow": "tomorrow", "2mrw": "tomorrow",
    "yday": "yesterday", "yest": "yesterday", "yesterdy": "yesterday",
    "2day": "today", "tonite": "tonight", "2nite": "tonight",
    "wk": "week", "wks": "weeks", "wknd": "weekend", "wkend": "weekend", "wkends": "weekends",
    "mnth": "month", "mnths": "months", "yr": "year", "yrs": "years",
}
# Day abbreviations that are also words of their own ("I sat", "the sun", "we wed"): days only
# after "last", "this", "next" or "on".
CHAT_DAYS = {"mon": "monday", "sat": "saturday", "sun": "sunday", "wed": "wednesday"}


def alternation(words: Iterable[str]) -> str:
    """A regular-expression alternation of `words`, longest first (so "sept" wins over "sep")."""
    return "|".join(sorted(set(words), key=lambda w: (-len(w), w)))


WEEKDAY_PATTERN = alternation(WEEKDAYS)
MONTH_PATTERN = alternation(MONTH_NUMBER)  # full names and abbreviations
