"""A long prefix prefill in steps, so a turn never waits long behind one.

The local server reads one request at a time and cannot stop in the middle of reading a prompt. A prefix
prefill of a few hundred new tokens (the recent window slid, a pinned item was added) takes seconds on a
small CPU; a person who starts talking meanwhile would have their turn queued behind all of it. Sent as
growing message prefixes instead, each request reads at most about ``step_tokens`` new tokens (the
server's prompt cache keeps the longest prefix it has read), and between two requests the critical-path
scheduler can hold the rest back: a turn then waits for one step at most, and reads what is left itself.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

Message = dict[str, str]


def common_messages(messages: Sequence[Message], cached: Sequence[Message] | None) -> int:
    """How many leading messages the server has already read (they equal ``cached``'s)."""
    if not cached:
        return 0
    count = 0
    for new, old in zip(messages, cached, strict=False):
        if new != old:
            break
        count += 1
    return count


def prefill_steps(
    messages: Sequence[Message],
    cached: Sequence[Message] | None,
    count_tokens: Callable[[str], int],
    step_tokens: int,
) -> list[int]:
    """The lengths ``k`` of the message prefixes ``messages[:k]`` to send, in order; the last one is
    ``len(messages)``. Each step adds whole messages (a message cannot be split: the chat template
    closes it) until about ``step_tokens`` new tokens; ``step_tokens`` <= 0 means one request."""
    total = len(messages)
    if total == 0:
        return []
    if step_tokens <= 0:
        return [total]
    steps: list[int] = []
    pending = 0
    for index in range(common_messages(messages, cached), total):
        pending += count_tokens(messages[index].get("content", "")) + 4  # the template's markers
        if pending >= step_tokens and index + 1 < total:
            steps.append(index + 1)
            pending = 0
    steps.append(total)
    return steps
