"""Voices from the formats other ChatTTS front ends use, and back out again.

Every embedding ends up as ChatTTS's own speaker string (float16, LZMA, base16384), so a
voice carries over between programs and versions: a seed, a speaker string, a `.pt` tensor
(ChatTTS WebUI / ComfyUI), a ChatTTS-ui `.csv` (one number per line), a ChatTTS-Forge
`.spkv1.json`, or our own voice file.

Every file is hostile until parsed: read with a size cap, checked against a schema, and any
failure ends in a VoiceError naming the file (and the field, where there is one).
"""

from __future__ import annotations

import base64
import binascii
import io
import pickle
import re
from collections.abc import Iterable
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np

from app.atomic import write_json_atomic
from app.core import (
    RecordError,
    UnreadableFileError,
    VoiceError,
    read_bytes_capped,
    read_json_capped,
)
from app.i18n import N_, _
from app.library import Voice, voice_from_record
from app.voices.speakers import MAX_SPEAKER_DIMS, decode_speaker, encode_speaker

IMPORT_FILTER = "*.json *.pt *.pth *.csv *.txt"
IMPORTED_VOICE = N_("Imported voice")  # the name of a pasted speaker string
# A voice is ~1.5 KB of numbers (more with a reference recording's codes); 8 MB is plenty.
MAX_VOICE_FILE_BYTES = 8 * 1024 * 1024
_FLOAT = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
# Malformed data of any shape ends up as one of these inside the format readers.
_MALFORMED = (
    ValueError,
    TypeError,
    KeyError,
    IndexError,
    AttributeError,
    RecursionError,
    OverflowError,
    binascii.Error,
)


def _name_of(path: Path) -> str:
    name = path.name
    for suffix in (".spkv1.json", ".json", ".pt", ".pth", ".csv", ".txt"):
        if name.lower().endswith(suffix):
            return name[: -len(suffix)]
    return path.stem


def _imported_from(path: Path) -> str:
    """The notes of an imported voice, in the language of the moment of import."""
    return _("Imported from {file}").format(file=path.name)


def _from_embedding(values, name: str, notes: str, source: Path) -> Voice:
    emb = np.asarray(values, dtype=np.float32).reshape(-1)
    if emb.size < 16 or emb.size > MAX_SPEAKER_DIMS or not np.all(np.isfinite(emb)):
        raise VoiceError(
            _("{file} does not hold a speaker embedding; choose the voice file itself.").format(
                file=source.name
            )
        )
    return Voice(name=name, speaker=encode_speaker(emb.astype(np.float16)), notes=notes)


def _from_pt(path: Path, data: bytes) -> Voice:
    import torch

    try:
        # weights_only: a pickled file never runs code here.
        loaded = torch.load(io.BytesIO(data), map_location="cpu", weights_only=True)
    except pickle.UnpicklingError:
        raise VoiceError(
            _(
                "{file} holds Python objects, not only tensors, so it was not opened "
                "(it could run code); save the voice as a plain tensor and import that."
            ).format(file=path.name)
        ) from None
    except Exception:
        raise VoiceError(
            _(
                "{file} is not a readable PyTorch tensor file; "
                "check that it is a voice file and not damaged."
            ).format(file=path.name)
        ) from None
    if isinstance(loaded, dict):
        loaded = next(
            (loaded[k] for k in ("spk_emb", "emb", "speaker", "tensor") if k in loaded), None
        )
    if not isinstance(loaded, torch.Tensor) or loaded.numel() > MAX_SPEAKER_DIMS:
        raise VoiceError(_("{file} holds no speaker tensor.").format(file=path.name))
    return _from_embedding(loaded.float().numpy(), _name_of(path), _imported_from(path), path)


def _from_csv(path: Path, data: bytes) -> Voice:
    values = [
        float(x)
        for x in _FLOAT.findall(data.decode("utf-8-sig", errors="replace"))[: MAX_SPEAKER_DIMS + 1]
    ]
    return _from_embedding(values, _name_of(path), _imported_from(path), path)


def _find_chattts_token(node, depth: int = 0):
    if depth > 32:
        return None
    if isinstance(node, dict):
        data = node.get("data") if node.get("_type") == "DcSpkVoiceToken" else node
        if (
            isinstance(data, dict)
            and str(data.get("model_id", "")).replace("-", "").lower() == "chattts"
        ):
            return data.get("tokens")
        children: Iterable[Any] = node.values()
    elif isinstance(node, list):
        children = node
    else:
        return None
    for value in children:
        found = _find_chattts_token(value, depth + 1)
        if found is not None:
            return found
    return None


def _forge_meta(data: dict) -> dict:
    inner = data.get("data")
    meta = inner.get("meta") if isinstance(inner, dict) else None
    meta = meta.get("data", meta) if isinstance(meta, dict) else None
    return meta if isinstance(meta, dict) else {}


def _text_or(value, default: str, limit: int) -> str:
    """An optional text field: kept when it is text, else the default (it never stops the import)."""
    return value.strip()[:limit] if isinstance(value, str) and value.strip() else default


def _from_forge(path: Path, data: dict) -> Voice:
    tokens = _find_chattts_token(data)
    if not isinstance(tokens, list) or not tokens:
        raise VoiceError(
            _("{file} has no ChatTTS voice token (it may be for another model).").format(
                file=path.name
            )
        )
    token = tokens[0]
    if isinstance(token, dict) and token.get("_type") == "torch.Tensor":
        encoded = token.get("data")
        if not isinstance(encoded, str) or len(encoded) > 8 * MAX_SPEAKER_DIMS:
            raise VoiceError(
                _("{file}: the field '{field}' is not a speaker tensor.").format(
                    file=path.name, field="tokens.data"
                )
            )
        values = np.frombuffer(base64.b64decode(encoded, validate=True), dtype=np.float32)
    elif isinstance(token, list) and len(token) <= MAX_SPEAKER_DIMS:
        values = np.asarray(token, dtype=np.float32)
    else:
        raise VoiceError(
            _("{file}: the field '{field}' is not a speaker tensor.").format(
                file=path.name, field="tokens"
            )
        )
    meta = _forge_meta(data)
    return _from_embedding(
        values,
        _text_or(meta.get("name"), _name_of(path), 200),
        _text_or(meta.get("desc"), _imported_from(path), 2000),
        path,
    )


def _from_our_json(path: Path, data: dict) -> Voice:
    data = dict(data)
    if not isinstance(data.get("name"), str) or not data.get("name", "").strip():
        data["name"] = _name_of(path)
    try:
        voice = voice_from_record(data, path.name)
    except RecordError as exc:
        raise VoiceError(
            _(
                "{file}: the field '{field}' is not valid, so the voice was not "
                "imported; fix or re-export the file."
            ).format(file=path.name, field=exc.field)
        ) from None
    if voice.speaker:
        decode_speaker(voice.speaker)
    return voice


def _read(path: Path) -> Voice:
    lower = path.name.lower()
    if lower.endswith(".json"):
        data = read_json_capped(path, MAX_VOICE_FILE_BYTES, _("voice file"))
        if isinstance(data, dict) and (
            data.get("_type") == "DcSpk" or lower.endswith(".spkv1.json")
        ):
            return _from_forge(path, data)
        if isinstance(data, dict) and (data.get("speaker") or data.get("reference")):
            return _from_our_json(path, data)
        raise VoiceError(_("{file} is not a voice file this program knows.").format(file=path.name))
    data = read_bytes_capped(path, MAX_VOICE_FILE_BYTES, _("voice file"))
    if lower.endswith((".pt", ".pth")):
        return _from_pt(path, data)
    if lower.endswith(".csv"):
        return _from_csv(path, data)
    return voice_from_string(data.decode("utf-8-sig", errors="replace"), _name_of(path))


def import_voice_file(path) -> Voice:
    """Read a voice from any supported file; raises VoiceError with a sentence."""
    path = Path(path)
    if not path.is_file():
        raise VoiceError(_("{path} does not exist.").format(path=path))
    try:
        return _read(path)
    except UnreadableFileError as exc:
        raise VoiceError(str(exc)) from None
    except _MALFORMED:
        raise VoiceError(
            _(
                "{file} is damaged or not a voice file this program knows; export the voice again."
            ).format(file=path.name)
        ) from None


def voice_from_string(speaker: str, name: str | None = None) -> Voice:
    decode_speaker(speaker)  # raises VoiceError if it is not a speaker string
    return Voice(name=_(IMPORTED_VOICE) if name is None else name, speaker=speaker.strip())


def export_voice(voice: Voice, path) -> Path:
    """Our voice file: JSON with the speaker string (readable by import_voice_file)."""
    return write_json_atomic(path, asdict(voice))
