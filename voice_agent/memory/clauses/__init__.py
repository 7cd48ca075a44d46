"""Clause extraction behind the chunker: a parsed utterance becomes ``Piece``s (token sets), one per
clause, which the chunker merges, windows and renders. ``english`` and ``chinese`` read a dependency
parse; ``fallback`` needs none."""
