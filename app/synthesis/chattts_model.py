"""Loading ChatTTS itself, for `--decode upstream` (UpstreamDecoder) and as the audio encoder's
fallback (runtime/parts.py): quiet libraries, the model on a device, its normalizer, and the
hooks UpstreamDecoder needs (a cancel flag ChatTTS checks every step, its token-limit log line).

ChatTTS is imported here on first use, never at module import: it costs seconds and the
window must appear first.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import threading
import warnings
from dataclasses import asdict

from app import paths
from app.core import ModelCorruptError
from app.i18n import _
from app.model import chattts_config, load_failures, read_model_dims, zero_init
from app.synthesis.numba_cache import FOLDER as NUMBA_FOLDER
from app.synthesis.numba_cache import cache_normalizer, warm_normalizer
from app.synthesis.weightless_gpt import gpt_without_weights
from app.text import normalize_text as normalize

CHATTTS_LOG = "chattts_studio.chattts"
# ChatTTS loads under patches of module globals (weightless_gpt.py, zero_init.py): a load while
# another runs (a model switched while the audio encoder's ChatTTS loads in the background) would
# see the other's patches, e.g. a GPT without weights it asked to read.
_LOAD_LOCK = threading.Lock()


def quiet_libraries() -> None:
    """Keep library chatter (progress bars, deprecation notices) out of the user's console."""
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    warnings.filterwarnings(
        "ignore", category=FutureWarning, module=r"(transformers|torch|ChatTTS|vocos)"
    )
    warnings.filterwarnings("ignore", message=r".*past_key_values.*")
    warnings.filterwarnings(
        "ignore", category=UserWarning, module=r"(torch|vocos|vector_quantize_pytorch)"
    )
    warnings.filterwarnings("ignore", category=PendingDeprecationWarning, module=r"numba")
    try:
        import transformers

        transformers.utils.logging.set_verbosity_error()
        transformers.utils.logging.disable_progress_bar()
    except Exception:  # transformers missing is reported by the load that follows
        pass


class StopFlag:
    """The flag ChatTTS's own decode checks every step; the event behind it is swapped per
    batch, because each batch of the scheduler has its own."""

    def __init__(self):
        self.event = threading.Event()

    def is_set(self) -> bool:
        return self.event.is_set()


def _cancel_context(flag: StopFlag):
    from ChatTTS.model.gpt import GPT

    class CancelContext(GPT.Context):
        """ChatTTS resets its own flag at the start of every infer(); ours outlives that."""

        def get(self) -> bool:
            return self._interrupt or flag.is_set()

    return CancelContext()


class TokenLimitWatch(logging.Handler):
    """ChatTTS only logs "hit max_new_token: N" when a pass is cut off; we turn it into a
    warning the user sees (long sentences losing their ending is a top complaint)."""

    _PATTERN = re.compile(r"hit max_new_token: (\d+)")

    def __init__(self):
        super().__init__(logging.WARNING)
        self.limits: list[int] = []

    def emit(self, record: logging.LogRecord) -> None:
        found = self._PATTERN.search(record.getMessage())
        if found:
            self.limits.append(int(found.group(1)))


def register_normalizers(chattts_norm):
    """Text normally arrives normalized already; this catches any path that skips us, so
    ChatTTS never silently drops digits."""
    for lang in ("zh", "en"):
        chattts_norm.register(lang, lambda text, _lang=lang: normalize(text, _lang))
    return chattts_norm


def chattts_normalizer():
    """ChatTTS's own normalizer (homophones, character filter) without loading a model."""
    quiet_libraries()
    import ChatTTS
    from ChatTTS.norm import Normalizer

    table = os.path.join(os.path.dirname(ChatTTS.__file__), "res", "homophones_map.json")
    return register_normalizers(Normalizer(table, logging.getLogger(CHATTTS_LOG)))


def load_chat(
    store,
    device: str,
    studio_cfg,
    stop: StopFlag,
    gpt_weights: bool = True,
    normalizer: bool = True,
):
    """ChatTTS's Chat with the weights of `store` on `device`, its normalizer warmed up.
    `gpt_weights=False`: the GPT's Llama without its weights (synthesis/weightless_gpt.py), where
    only its audio encoder is used. `normalizer=False`: its normalizer is not used, so its numba
    functions are left uncompiled."""
    quiet_libraries()
    import ChatTTS
    import torch

    chat = ChatTTS.Chat(logging.getLogger(CHATTTS_LOG))
    chat.config = chattts_config(
        read_model_dims(store.root), None if studio_cfg is None else studio_cfg["spk_stat"]
    )
    chat.context = _cancel_context(stop)
    files = {k: str(store.root / v) for k, v in asdict(chat.config.path).items()}
    with (
        load_failures(store.root, device),
        _LOAD_LOCK,
        contextlib.nullcontext() if gpt_weights else gpt_without_weights(),
        zero_init(),
    ):
        ok = chat._load(device=torch.device(device), compile=False, **files)
    if not ok:
        raise ModelCorruptError(
            _("The model in {folder} did not load completely; download it again.").format(
                folder=store.root
            )
        )
    if not normalizer:
        return chat
    # The normalizer's numba functions compile on first use, holding the GIL for seconds:
    # pay that now, while the window shows "loading", not on the first Play. Only after
    # registration does it split tags, and only Chinese reaches the homophone table.
    # Kept between starts (synthesis/numba_cache.py), so only the first start pays it.
    numba_folder = paths.cache_dir() / NUMBA_FOLDER
    cache_normalizer(numba_folder)
    register_normalizers(chat.normalizer)
    warm_normalizer(chat.normalizer, numba_folder)
    return chat
