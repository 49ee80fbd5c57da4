"""ChatTTS 0.2.5's Speaker rules (ChatTTS/model/speaker.py) that the decode path uses: how a
prompt is decorated, how a reference prompt's codes are unpacked, and how the speaker
embedding replaces the [spk_emb] position. Seeds become speakers in voices/speakers.py."""

from __future__ import annotations

import lzma

import numpy as np
import torch
import torch.nn.functional as F

from app.voices import LZMA_ARGS, decode_speaker


class Speaker:
    @staticmethod
    def decorate_code_prompts(
        text: list[str], prompt: str, txt_smp: str | None, spk_emb: str | None
    ) -> list[str]:
        # ChatTTS strips these markers first (its issue 459), then adds its own.
        text = [
            t.replace("[Stts]", "").replace("[spk_emb]", "").replace("[empty_spk]", "").strip()
            for t in text
        ]
        if prompt:
            text = [prompt + t for t in text]
        txt_smp = "" if txt_smp is None else txt_smp
        marker = "[spk_emb]" if spk_emb is not None else "[empty_spk]"
        return [f"[Stts]{marker}{txt_smp}{t}[Ptts]" for t in text]

    @staticmethod
    def decorate_text_prompts(text: list[str], prompt: str) -> list[str]:
        return [f"[Sbreak]{t}[Pbreak]{prompt}" for t in text]

    @staticmethod
    def decode_prompt(prompt: str) -> torch.Tensor:
        """A reference recording's codes (num_vq, T) from ChatTTS's text form."""
        import pybase16384 as b14

        dec = b14.decode_from_string(prompt)
        shape = np.frombuffer(dec[:4], dtype="<u2")
        codes = np.frombuffer(lzma.decompress(dec[4:], **LZMA_ARGS), dtype="<u2").copy()
        return torch.from_numpy(codes.astype(np.int32)).view(*shape)

    @staticmethod
    def encode_prompt(codes: torch.Tensor) -> str:
        """ChatTTS's text form of a recording's codes (num_vq, T): the inverse of decode_prompt."""
        import pybase16384 as b14

        arr = codes.cpu().numpy().astype(np.uint16)
        if arr.ndim != 2:
            raise ValueError(f"codes must be (num_vq, T), not {arr.shape}")
        return b14.encode_to_string(
            np.array(arr.shape, dtype="<u2").tobytes()
            + lzma.compress(arr.astype("<u2").tobytes(), **LZMA_ARGS)
        )

    @torch.inference_mode()
    def apply(
        self,
        emb: torch.Tensor,
        spk_emb: str | torch.Tensor,
        input_ids: torch.Tensor,
        spk_emb_ids: int,
        device: torch.device,
        inplace: bool = True,
    ) -> torch.Tensor:
        """`emb` with the speaker's normalized embedding at every [spk_emb] position."""
        # Decoded with voices/speakers.py's size caps (a string here was checked when it was chosen).
        spk = torch.from_numpy(decode_speaker(spk_emb)) if isinstance(spk_emb, str) else spk_emb
        n = (
            F.normalize(spk, p=2.0, dim=0, eps=1e-12)
            .to(device)
            .unsqueeze_(0)
            .expand(emb.size(0), -1)
            .unsqueeze_(1)
            .expand(emb.shape)
        )
        cond = input_ids.narrow(-1, 0, 1).eq(spk_emb_ids).expand(emb.shape)
        return torch.where(cond, n, emb, out=emb if inplace else None)
