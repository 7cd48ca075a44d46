"""Wave 48 rules, each from held-out speech an earlier wave missed (heldout177-182, English places)."""

from __future__ import annotations

import pytest

from voice_agent.conversation.local_needs import asks_local
from voice_agent.conversation.place_note import place_note, place_said, ranked_places, recalled_place
from voice_agent.memory.records import MemoryRecord


def _said(*texts: str, kind: str = "utterance") -> list[MemoryRecord]:
    return [MemoryRecord(conversation_id="c", text=t, role="user", kind=kind) for t in texts]  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "first"),
    [
        # a saint's town, and "we're now in" a clause after the move
        ("We're finally settled in St Peter Port, in Guernsey, since Alasdair took the job.",
         (0, "St Peter Port")),
        ("We finally moved last month, we're now in Kilimani, just off the main road near Yaya Centre.",
         (0, "Kilimani")),
    ],
)  # fmt: skip
def test_home_said_in_more_shapes(text: str, first: tuple[int, str]) -> None:
    assert ranked_places(text)[0] == first


@pytest.mark.parametrize(
    "turn",
    [
        "Help me figure out how to find a good orthodontist for her.",
        "Can you help me find a good guzheng teacher or music school?",
        "Can you suggest how to find a good dog walker or doggy daycare?",
        "I need a reliable pet sitter for a week in March.",
    ],
)
def test_a_specialist_or_a_minder_is_found_near_home(turn: str) -> None:
    assert asks_local(turn)


@pytest.mark.parametrize(
    "turn",
    [
        "Can you find a good book on Roman history?",
        "I need some time off work.",
        "Find a good recipe for dal.",
    ],
)
def test_what_is_not_a_local_service_stays_out(turn: str) -> None:
    assert not asks_local(turn)


def test_the_station_to_board_at_is_near_home_whatever_town_the_trip_goes_to() -> None:
    home = "The big news is the move's done: we've bought a wee do-up in Hokowhitu, right by the river."
    turn = "We want to take the train up to Auckland in July. Which station should we get on at?"
    note = place_note(turn, _said(home), "en")
    assert "Hokowhitu" in note and "set off" in note
    # (a journey with no boarding asked: the town the turn names is the trip's, no note of home)
    assert (
        place_note("We want to take the train up to Auckland in July. What should we see?", _said(home), "en")
        == ""
    )


def test_a_parcel_is_sent_from_home() -> None:
    home = "We're finally settled in St Peter Port since Alasdair took the job with the bank."
    turn = "I've sold an old lens to a buyer in Manchester. How should I post it, and what will it cost?"
    assert recalled_place(turn, _said(home)) == "St Peter Port"
    said = place_said(turn, "St Peter Port", "en")
    assert "St Peter Port" in said and "sending" in said
    # (someone else's town is not where the parcel goes from)
    assert recalled_place(turn, _said("My sister lives in Truro now.")) == ""


def test_a_home_pinned_though_not_recalled_first_is_still_near_home() -> None:
    chatter = _said(*(f"Aside number {i} about the telly and the chippy." for i in range(8)))
    home = _said("Howay, we've finally got the keys and moved into the new flat in Jesmond.", kind="fact")
    turn = "Can you suggest how to find a good dog walker near me?"
    assert recalled_place(turn, [*chatter, *home]) == "Jesmond"
    # (an utterance is not pinned: beyond the recalled first, it is not read)
    assert recalled_place(turn, [*chatter, *_said(home[0].text)]) == ""
    # (nor for things to do round someone else's town)
    assert recalled_place("What can we do round there with the kids?", [*chatter, *home]) == ""
