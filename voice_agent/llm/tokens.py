"""Counting tokens: with the model's own tokenizer when its GGUF is at hand, else the shared estimate.

The prompt builder counts often (every layer, every record), so counting is synchronous and cached.
Without one, the estimate is ``text.cjk.estimate_tokens``, the rule the memory budget counts with.
Loading a GGUF's vocabulary in-process (``llama_cpp.Llama(vocab_only=True)``) takes well under a second
and no model weights; tokenizing a sentence then takes tens of microseconds.
"""

from __future__ import annotations

import contextlib
import io
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from voice_agent.errors import DependencyMissingError, ModelError

# Without a vocabulary, counts follow the one budget rule the memory and the prompt builder use.
from voice_agent.text.cjk import estimate_tokens as estimate_tokens

Message = dict[str, str]

# Per-message wrapping of the usual chat templates (ChatML: "<|im_start|>role\n" ... "<|im_end|>\n").
_ESTIMATED_MESSAGE_OVERHEAD = 5
_ESTIMATED_REPLY_PRIMER = 3
_ATTR_CONTROL = 1 << 3  # llama.cpp's LLAMA_TOKEN_ATTR_CONTROL: <|im_start|>, <|endoftext|>, …


class TokenCounter:
    """``count(text)``: tokens of plain text; ``count_messages(messages)``: a whole chat prompt.

    Build with :meth:`from_gguf` (exact, the model's vocabulary) or :meth:`estimate` (no model).
    """

    def __init__(
        self,
        tokenize: Callable[[str], int] | None = None,
        *,
        render_chat: Callable[[Sequence[Message], bool], str] | None = None,
        count_rendered: Callable[[str], int] | None = None,
        count_control: Callable[[str], int] | None = None,
        name: str = "estimate",
        cache_size: int = 8192,
    ) -> None:
        if cache_size < 1:
            raise ValueError("cache_size must be at least 1")
        self.name = name
        self._tokenize = tokenize
        self._render_chat = render_chat
        self._count_rendered = count_rendered
        self._count_control = count_control
        self._cache: OrderedDict[str, int] = OrderedDict()
        self._cache_size = cache_size
        self._lock = threading.Lock()

    @classmethod
    def estimate(cls) -> TokenCounter:
        return cls(None, name="estimate")

    @classmethod
    def from_gguf(cls, path: str | Path) -> TokenCounter:
        """Load the vocabulary (and chat template) of a GGUF model; blocking, well under a second."""
        gguf = Path(path)
        if not gguf.is_file():
            raise ModelError(f"GGUF model file not found: {gguf}", path=str(gguf))
        try:
            import llama_cpp
        except ImportError as err:
            raise DependencyMissingError("llama_cpp", "local-llm") from err
        said = io.StringIO()  # llama.cpp warns about the context of a vocabulary-only model: not news
        try:
            with contextlib.redirect_stderr(said):
                vocab = llama_cpp.Llama(str(gguf), vocab_only=True, verbose=False)
        except (ValueError, RuntimeError) as err:
            detail = said.getvalue().strip()[-500:]
            raise ModelError(
                f"cannot read the GGUF vocabulary of {gguf}: {err}" + (f" ({detail})" if detail else ""),
                path=str(gguf),
            ) from err
        lock = threading.Lock()

        def tokenize(text: str, special: bool = False) -> int:
            with lock:  # the llama.cpp vocabulary is not documented as thread-safe
                return len(vocab.tokenize(text.encode("utf-8"), add_bos=False, special=special))

        def count_control(text: str) -> int:
            with lock:
                ids = vocab.tokenize(text.encode("utf-8"), add_bos=False, special=True)
                return sum(1 for token in ids if vocab._model.token_get_attr(token) & _ATTR_CONTROL)

        return cls(
            tokenize,
            render_chat=_template_renderer(vocab),
            count_rendered=lambda prompt: tokenize(prompt, special=True),
            count_control=count_control,
            name=f"gguf:{gguf.name}",
        )

    @property
    def exact(self) -> bool:
        """True when counts come from the model's own tokenizer."""
        return self._tokenize is not None

    def count(self, text: str) -> int:
        if not text:
            return 0
        with self._lock:
            hit = self._cache.get(text)
            if hit is not None:
                self._cache.move_to_end(text)
                return hit
        value = self._tokenize(text) if self._tokenize is not None else estimate_tokens(text)
        with self._lock:
            self._cache[text] = value
            if len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)
        return value

    def control_tokens(self, text: str) -> int | None:
        """How many control tokens (chat-template markers such as ``<|im_start|>``) a server that parses
        special tokens in message content, as llama.cpp does, would read in ``text``; None without the
        model's vocabulary."""
        if self._count_control is None or not text:
            return None if self._count_control is None else 0
        return self._count_control(text)

    def count_messages(self, messages: Sequence[Message], *, add_generation_prompt: bool = True) -> int:
        """Tokens of the whole prompt the server will read, chat template included; with
        ``add_generation_prompt`` also the primer that opens the assistant's reply."""
        if not messages:
            return 0
        if self._render_chat is not None and self._count_rendered is not None:
            try:
                return self._count_rendered(self._render_chat(messages, add_generation_prompt))
            except Exception:  # a template that needs variables we do not pass: fall back below
                self._render_chat = None
        body = sum(self.count(m.get("content", "")) + _ESTIMATED_MESSAGE_OVERHEAD for m in messages)
        return body + (_ESTIMATED_REPLY_PRIMER if add_generation_prompt else 0)


def _template_renderer(vocab: Any) -> Callable[[Sequence[Message], bool], str] | None:
    """Render messages with the chat template stored in the GGUF, as the llama.cpp server does."""
    template = vocab.metadata.get("tokenizer.chat_template")
    if not template:
        return None
    try:
        from llama_cpp.llama_chat_format import Jinja2ChatFormatter
    except ImportError:
        return None
    model = vocab._model
    eos = model.token_get_text(vocab.token_eos()) if vocab.token_eos() >= 0 else ""
    bos = model.token_get_text(vocab.token_bos()) if vocab.token_bos() >= 0 else ""
    formatters = {
        primer: Jinja2ChatFormatter(template, eos_token=eos, bos_token=bos, add_generation_prompt=primer)
        for primer in (True, False)
    }

    def render(messages: Sequence[Message], add_generation_prompt: bool) -> str:
        chat: Any = list(messages)
        return str(formatters[add_generation_prompt](messages=chat).prompt)

    return render
