"""The published accuracy–cost points of the SodaMem paper's Table 1, read from the paper's text
at run time (a tab-separated table: Method, Date, Model, Acc., Cost / 10³ Q)."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path

_HEADER = re.compile(r"^Method\tDate\tModel\tAcc\.\tCost", re.IGNORECASE)
_MONEY = re.compile(r"\$\s*([0-9]+(?:\.[0-9]+)?)")


@dataclass
class PublishedPoint:
    method: str
    model: str
    accuracy: float  # 0..1
    cost_per_question: float  # USD; a range's geometric middle
    cost_low: float
    cost_high: float
    measured: bool  # "meas." (else "est.")


def find_paper(start: Path) -> Path | None:
    """The paper text (`seeds/000_*.txt`) in a folder above `start`, if there is one."""
    for folder in [start, *start.parents]:
        found = sorted((folder / "seeds").glob("000_*.txt")) if (folder / "seeds").is_dir() else []
        if found:
            return found[0]
    return None


def read_points(path: Path) -> list[PublishedPoint]:
    lines = path.read_text(encoding="utf-8").splitlines()
    start = next((i for i, line in enumerate(lines) if _HEADER.match(line)), None)
    if start is None:
        raise ValueError(f"{path}: no Table 1 (a 'Method<TAB>Date<TAB>Model<TAB>Acc.' header)")
    points = []
    for line in lines[start + 1:]:
        cells = line.split("\t")
        if len(cells) < 5:
            break
        amounts = [float(x) for x in _MONEY.findall(cells[4])]
        acc = re.match(r"\s*([0-9.]+)\s*%", cells[3])
        if not amounts or not acc:
            continue
        low, high = min(amounts) / 1000, max(amounts) / 1000  # the table is per 10³ questions
        name = re.sub(r"\s*\(ours\)|[†*]", "", cells[0]).strip()  # the paper's own markers
        points.append(PublishedPoint(name, cells[2].strip(), float(acc.group(1)) / 100,
                                     math.sqrt(low * high), low, high, "meas" in cells[4]))
    return points
