"""A kind of thing a person asks for and its specific options (the data types of ``suggestion_kinds``)."""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Option:
    text: str  # said as it is: "a cup of chamomile tea", "一杯菊花茶"
    contains: tuple[str, ...] = ()  # what it is made of, in words the constraint check knows


@dataclass(frozen=True)
class RequestKind:
    name: str
    asked: re.Pattern[str]  # the person's words that ask for this kind
    en: tuple[Option, ...]
    zh: tuple[Option, ...]


def option(text: str, *contains: str) -> Option:
    return Option(text, contains)
