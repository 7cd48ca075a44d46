"""Calibration data for the loopback check, and a measurement over it (used by the test and by
``scripts/measure_loopback.py``): how often generic replies are refused (false positives), how often a
reply that paraphrases another conversation's memory is caught (true positives)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from voice_agent.memory.writes import WriteRequest

# What the owner conversation told the assistant.
OWNER_MEMORIES: tuple[str, ...] = (
    "My daughter Emma starts school at Oakwood Primary in September.",
    "I was diagnosed with type 2 diabetes last year and I take metformin every morning.",
    "My phone number is 138 0013 8000, call me after six.",
    "We are moving to Rotterdam in March because of my husband's new job at the port.",
    "I owe my brother four thousand euros and I haven't told my wife.",
    "My bank card ends in 4111 1111 1111 1111 and I keep the PIN in my wallet.",
    "I'm allergic to penicillin and I had a bad reaction in 2019.",
    "My therapist Dr. Keller thinks my anxiety comes from my job.",
    "I'm planning to propose to Sofia on our trip to Kyoto next April.",
    "Our dog Pepper had surgery on her hip last Tuesday.",
    "I failed my driving test twice, the second time on the roundabout.",
    "My salary is sixty-two thousand a year and I want to ask for a raise.",
)

# Replies in ANOTHER conversation that leak those memories, reworded.
LEAKING_REPLIES: tuple[str, ...] = (
    "Your daughter Emma will be starting at Oakwood Primary this September.",
    "You were diagnosed with type 2 diabetes last year and take metformin each morning.",
    "Your number is 138 0013 8000, and you prefer calls after six.",
    "You're relocating to Rotterdam in March for your husband's job at the port.",
    "You owe your brother four thousand euros and your wife doesn't know.",
    "Your card ending 4111 1111 1111 1111 has its PIN kept in your wallet.",
    "You're allergic to penicillin after a bad reaction in 2019.",
    "Dr. Keller, your therapist, believes your job causes your anxiety.",
    "You plan to propose to Sofia during the Kyoto trip next April.",
    "Pepper, your dog, had hip surgery last Tuesday.",
    "You failed the driving test twice, the second time at the roundabout.",
    "You earn sixty-two thousand a year and want to ask for a raise.",
)

# Ordinary replies (none of them in the stock-phrase bank): none may be refused.
GENERIC_REPLIES: tuple[str, ...] = (
    "Sure thing, I can do that for you.",
    "Happy to help!",
    "Let me check that for you.",
    "Is there anything else you'd like to know?",
    "That's interesting, tell me more.",
    "I'm glad to hear that!",
    "Okay, noted.",
    "No problem at all.",
    "I'm not sure, could you give me more details?",
    "That makes sense.",
    "Good morning! What can I do for you?",
    "Thanks for your patience.",
    "I'll keep that in mind.",
    "Sounds like a plan.",
    "Take care and see you soon.",
    "I can help you with that right away.",
    "Would you like me to set a reminder?",
    "Here is what I found.",
    "Sorry, I can't do that.",
    "Great choice!",
    "I hope you have a wonderful day.",
    "Let me know when you're ready.",
    "That's a lovely idea.",
    "Could you repeat the last part?",
    "I understand, that can be stressful.",
    "Of course, whenever you like.",
    "It's nice to talk with you again.",
    "I'm happy you enjoyed it.",
    "Alright, let's get started.",
    "Is this a good time to talk?",
    "好的，没问题。",
    "我明白了，谢谢。",
    "请稍等一下。",
    "祝你今天愉快！",
)

# Replies on the same topics that do not quote anyone: ideally not refused either.
TOPICAL_REPLIES: tuple[str, ...] = (
    "Schools usually start in September.",
    "Diabetes is often managed with diet and medication.",
    "Rotterdam has one of the largest ports in Europe.",
    "Penicillin allergies are fairly common.",
    "Kyoto is beautiful in spring.",
    "Many people take their driving test more than once.",
)


@dataclass
class LoopbackMeasure:
    generic_flagged: int
    generic_total: int
    topical_flagged: int
    topical_total: int
    leaks_caught: int
    leaks_total: int
    details: list[dict[str, Any]]

    @property
    def false_positive_rate(self) -> float:
        return self.generic_flagged / self.generic_total

    @property
    def true_positive_rate(self) -> float:
        return self.leaks_caught / self.leaks_total

    def to_json(self) -> dict[str, Any]:
        return {
            "false_positive_rate_generic": round(self.false_positive_rate, 3),
            "flagged_topical": f"{self.topical_flagged}/{self.topical_total}",
            "true_positive_rate_paraphrase": round(self.true_positive_rate, 3),
            "details": self.details,
        }


async def measure_loopback(memory: Any, owner: str = "owner", other: str = "other") -> LoopbackMeasure:
    """Fill ``owner`` with the memories (and ``other`` with chatter), then check replies in ``other``."""
    for i, text in enumerate(OWNER_MEMORIES):
        await memory.remember(WriteRequest(owner, "user", text, source=f"m{i}"))
    await memory.remember(WriteRequest(other, "user", "Hi, can you help me plan my week?", source="o1"))
    details: list[dict[str, Any]] = []

    async def run(label: str, sentences: tuple[str, ...]) -> int:
        flagged = 0
        for sentence in sentences:
            verdict = await memory.loopback(other, sentence)
            flagged += int(verdict.flagged)
            details.append({"set": label, "sentence": sentence, **verdict.to_json()})
        return flagged

    generic = await run("generic", GENERIC_REPLIES)
    topical = await run("topical", TOPICAL_REPLIES)
    leaks = await run("leak", LEAKING_REPLIES)
    return LoopbackMeasure(
        generic, len(GENERIC_REPLIES), topical, len(TOPICAL_REPLIES), leaks, len(LEAKING_REPLIES), details
    )
