"""ChatTTS `Config` objects for a model folder's dimensions.

The official weights use ChatTTS's defaults (official.json holds the same numbers). A
random-weight model names its dimensions in its description; this module turns a `ModelDims`
into a `ChatTTS.config.Config` the same way for the builder (app.selftest.random_model) and the
loader (app.synthesis.chattts_model), so both agree by construction.
"""

from __future__ import annotations

from dataclasses import asdict

from app.model.dims import ModelDims


def chattts_config(
    dims: ModelDims | None = None, spk_stat: str | None = None, num_text_tokens: int | None = None
):
    """A fresh Config for `dims`; None: ChatTTS's own defaults (official.json's numbers).

    Fresh instances matter: ChatTTS's dataclasses share their default sub-objects between
    instances, so editing one in place would change every later Config in the process.
    """
    from ChatTTS.config import config as c

    cfg = c.Config(
        path=c.Path(),
        decoder=c.Decoder(),
        dvae=c.DVAE(
            encoder=c.Decoder(**asdict(c.DVAE().encoder)),
            decoder=c.Decoder(**asdict(c.DVAE().decoder)),
            vq=c.VQ(),
        ),
        gpt=c.GPT(),
        embed=c.Embed(),
        vocos=c.Vocos(
            feature_extractor=c.FeatureExtractor(init_args=c.FeatureExtractorInitArgs()),
            backbone=c.Backbone(init_args=c.BackboneInitArgs()),
            head=c.FourierHead(init_args=c.FourierHeadInitArgs()),
        ),
    )
    if dims is None:
        return cfg

    g = dims.gpt
    text_tokens = num_text_tokens or dims.num_text_tokens or cfg.gpt.num_text_tokens
    cfg.gpt = c.GPT(
        hidden_size=g.hidden_size,
        intermediate_size=g.intermediate_size,
        num_attention_heads=g.num_attention_heads,
        num_hidden_layers=g.num_hidden_layers,
        max_position_embeddings=g.max_position_embeddings,
        spk_emb_dim=g.spk_emb_dim,
        num_audio_tokens=g.num_audio_tokens,
        num_text_tokens=text_tokens,
        num_vq=g.num_vq,
    )
    cfg.embed = c.Embed(
        hidden_size=g.hidden_size,
        num_audio_tokens=g.num_audio_tokens,
        num_text_tokens=text_tokens,
        num_vq=g.num_vq,
    )
    cfg.decoder = c.Decoder(**dims.decoder.model_dump())
    d = dims.dvae
    cfg.dvae = c.DVAE(
        encoder=c.Decoder(**d.encoder.model_dump()),
        decoder=c.Decoder(**d.decoder.model_dump()),
        vq=c.VQ(dim=d.vq.dim, levels=tuple(d.vq.levels), G=d.vq.G, R=d.vq.R),
    )
    v = dims.vocos
    backbone = c.BackboneInitArgs(
        dim=v.dim, intermediate_dim=v.intermediate_dim, num_layers=v.num_layers
    )
    cfg.vocos = c.Vocos(
        feature_extractor=c.FeatureExtractor(init_args=c.FeatureExtractorInitArgs()),
        backbone=c.Backbone(init_args=backbone),
        head=c.FourierHead(init_args=c.FourierHeadInitArgs(dim=v.dim)),
    )
    if spk_stat is not None:
        cfg.spk_stat = spk_stat
    return cfg
