"""Exact arithmetic, counting and date differences for the planner, done in code."""

from __future__ import annotations

import math
from datetime import date, datetime
from typing import Any

from dateutil import parser as date_parser
from dateutil.relativedelta import relativedelta
from simpleeval import FeatureNotAvailable, InvalidExpression, SimpleEval

from ..errors import InputError

UNITS = ("days", "weeks", "months", "years")
_FUNCTIONS = {"abs": abs, "round": round, "min": min, "max": max, "sum": sum,
              "floor": math.floor, "ceil": math.ceil, "sqrt": math.sqrt}


def arithmetic(expression: str) -> float | int:
    """The value of an arithmetic expression (numbers, + - * / // % **, a few functions)."""
    if not isinstance(expression, str) or not expression.strip():
        raise InputError("expression is empty")
    if len(expression) > 500:
        raise InputError("expression is longer than 500 characters")
    evaluator = SimpleEval(functions=_FUNCTIONS, names={"pi": math.pi})
    try:
        value = evaluator.eval(expression)
    except (InvalidExpression, FeatureNotAvailable, SyntaxError, TypeError, ValueError,
            ZeroDivisionError, OverflowError) as error:
        raise InputError(f"cannot evaluate {expression!r}: {type(error).__name__}: {error}") \
            from None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InputError(f"{expression!r} is not a number expression")
    return round(value, 6) if isinstance(value, float) else value


def parse_day(text: str) -> date:
    """A calendar day from an ISO date, "2023/05/20 (Sat) 10:00", "May 20, 2023"…"""
    if isinstance(text, datetime):
        return text.date()
    if isinstance(text, date):
        return text
    if not isinstance(text, str) or not text.strip():
        raise InputError("a date is empty")
    cleaned = text.split("(")[0].strip() if "(" in text else text.strip()
    try:
        return date_parser.parse(cleaned, default=datetime(2000, 1, 1)).date()
    except (ValueError, OverflowError) as error:
        raise InputError(f"cannot read {text!r} as a date: {error}") from None


def date_diff(start: str, end: str, unit: str = "days") -> dict[str, Any]:
    """How far `end` is after `start` (negative when before), in whole `unit`s and in days."""
    if unit not in UNITS:
        raise InputError(f"unit must be one of {UNITS}")
    a, b = parse_day(start), parse_day(end)
    days = (b - a).days
    delta = relativedelta(b, a)
    value: float | int
    if unit == "days":
        value = days
    elif unit == "weeks":
        value = round(days / 7, 2)
    elif unit == "months":
        value = delta.years * 12 + delta.months
    else:
        value = delta.years
    return {"start": a.isoformat(), "end": b.isoformat(), "unit": unit, "value": value,
            "days": days}


def date_add(start: str, amount: float, unit: str = "days") -> dict[str, Any]:
    if unit not in UNITS:
        raise InputError(f"unit must be one of {UNITS}")
    if isinstance(amount, bool) or not isinstance(amount, int | float):
        raise InputError("amount must be a number")
    day = parse_day(start) + relativedelta(**{unit: int(amount)})
    return {"date": day.isoformat(), "weekday": day.strftime("%A")}


def count(items: list[Any], distinct: bool = True) -> dict[str, Any]:
    """How many items (distinct ones, case- and space-insensitively, by default)."""
    if not isinstance(items, list):
        raise InputError("items must be a list")
    if distinct:
        seen: dict[str, Any] = {}
        for item in items:
            seen.setdefault(" ".join(str(item).lower().split()), item)
        kept = list(seen.values())
    else:
        kept = list(items)
    return {"count": len(kept), "items": kept}
