"""Voices from the formats other ChatTTS front ends use, and back out again.

Every embedding ends up as ChatTTS's own speaker string (float16, LZMA, base16384), so a
voice carries over between programs and versions: a seed, a speaker string, a `.pt` tensor
(ChatTTS WebUI / ComfyUI), a ChatTTS-ui `.csv` (one number per line), a ChatTTS-Forge
`.spkv1.json`, or our own voice file.
"""

from __future__ import annotations

import base64
import json
import re
from dataclasses import asdict
from pathlib import Path

import numpy as np

from app.atomic import write_json_atomic
from app.engine.errors import VoiceError
from app.engine.library.voices import FIELDS, Voice
from app.engine.voices import decode_speaker, encode_speaker

IMPORT_FILTER = "*.json *.pt *.pth *.csv *.txt"
_FLOAT = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


def _name_of(path: Path) -> str:
    name = path.name
    for suffix in (".spkv1.json", ".json", ".pt", ".pth", ".csv", ".txt"):
        if name.lower().endswith(suffix):
            return name[: -len(suffix)]
    return path.stem


def _from_embedding(values, name: str, notes: str = "") -> Voice:
    emb = np.asarray(values, dtype=np.float32).reshape(-1)
    if emb.size < 16 or not np.all(np.isfinite(emb)):
        raise VoiceError(f"{name}: this file does not hold a speaker embedding.")
    return Voice(name=name, speaker=encode_speaker(emb.astype(np.float16)), notes=notes)


def _from_pt(path: Path) -> Voice:
    import torch

    try:
        data = torch.load(str(path), map_location="cpu", weights_only=True)
    except Exception as exc:
        raise VoiceError(f"{path.name} is not a readable PyTorch file ({exc}).") from None
    if isinstance(data, dict):
        data = next((data[k] for k in ("spk_emb", "emb", "speaker", "tensor") if k in data), None)
    if not isinstance(data, torch.Tensor):
        raise VoiceError(f"{path.name} holds no speaker tensor.")
    return _from_embedding(data.float().numpy(), _name_of(path), notes=f"Imported from {path.name}")


def _from_csv(path: Path) -> Voice:
    values = [float(x) for x in _FLOAT.findall(path.read_text(encoding="utf-8-sig", errors="replace"))]
    return _from_embedding(values, _name_of(path), notes=f"Imported from {path.name}")


def _find_chattts_token(node):
    if isinstance(node, dict):
        data = node.get("data") if node.get("_type") == "DcSpkVoiceToken" else node
        if isinstance(data, dict) and str(data.get("model_id", "")).replace("-", "").lower() == "chattts":
            return data.get("tokens")
        for value in node.values():
            found = _find_chattts_token(value)
            if found is not None:
                return found
    elif isinstance(node, list):
        for value in node:
            found = _find_chattts_token(value)
            if found is not None:
                return found
    return None


def _forge_meta(data: dict) -> dict:
    meta = (data.get("data") or {}).get("meta") or {}
    return meta.get("data", meta) if isinstance(meta, dict) else {}


def _from_forge(path: Path, data: dict) -> Voice:
    tokens = _find_chattts_token(data)
    if not tokens:
        raise VoiceError(f"{path.name} has no ChatTTS voice token (it may be for another model).")
    token = tokens[0]
    if isinstance(token, dict) and token.get("_type") == "torch.Tensor":
        values = np.frombuffer(base64.b64decode(token["data"]), dtype=np.float32)
    else:
        values = np.asarray(token, dtype=np.float32)
    meta = _forge_meta(data)
    voice = _from_embedding(values, meta.get("name") or _name_of(path),
                            notes=meta.get("desc") or f"Imported from {path.name}")
    return voice


def import_voice_file(path) -> Voice:
    """Read a voice from any supported file; raises VoiceError with a sentence."""
    path = Path(path)
    if not path.is_file():
        raise VoiceError(f"{path} does not exist.")
    lower = path.name.lower()
    if lower.endswith((".pt", ".pth")):
        return _from_pt(path)
    if lower.endswith(".csv"):
        return _from_csv(path)
    text = path.read_text(encoding="utf-8-sig", errors="replace")
    if lower.endswith(".json"):
        try:
            data = json.loads(text)
        except ValueError:
            raise VoiceError(f"{path.name} is not valid JSON.") from None
        if isinstance(data, dict) and (data.get("_type") == "DcSpk" or lower.endswith(".spkv1.json")):
            return _from_forge(path, data)
        if isinstance(data, dict) and (data.get("speaker") or data.get("reference")):
            voice = Voice(**{k: data[k] for k in FIELDS if k in data})
            voice.name = voice.name or _name_of(path)
            if voice.speaker:
                decode_speaker(voice.speaker)
            return voice
        raise VoiceError(f"{path.name} is not a voice file this program knows.")
    return voice_from_string(text, _name_of(path))


def voice_from_string(speaker: str, name: str = "Imported voice") -> Voice:
    decode_speaker(speaker)   # raises VoiceError if it is not a speaker string
    return Voice(name=name, speaker=speaker.strip())


def export_voice(voice: Voice, path) -> Path:
    """Our voice file: JSON with the speaker string (readable by import_voice_file)."""
    return write_json_atomic(path, asdict(voice))
