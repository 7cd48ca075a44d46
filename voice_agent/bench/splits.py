"""The scenario splits of ``bench adoption`` (a module of its own, so the CLI reads them without loading
the benchmark): ``tune`` shaped the prompt; ``heldout`` to ``heldout27`` are reported, each written before
the changes it measured."""

SPLITS = (
    "tune",
    "heldout",
    "heldout2",
    "heldout3",
    "heldout4",
    "heldout5",
    "heldout6",
    "heldout7",
    "heldout8",
    "heldout9",
    "heldout10",
    "heldout11",
    "heldout12",
    "heldout13",
    "heldout14",
    "heldout15",
    "heldout16",
    "heldout17",
    "heldout18",
    "heldout19",
    "heldout20",
    "heldout21",
    "heldout22",
    "heldout23",
    "heldout24",
    "heldout25",
    "heldout26",
    "heldout27",
)
