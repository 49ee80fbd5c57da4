"""The int8 decode step: activation outliers smoothed into the weights, then int8 weights.

Dynamic int8 (fbgemm) quantizes each Linear's input with one scale for the whole tensor. Trained
transformers have a few hidden channels 20-100x larger than the rest; one scale sized for them
leaves the other channels a handful of levels, and the output drifts (bench/precision_quality.py
measures it on a stress model with such channels). Two changes make int8 robust to them:

- SmoothQuant (Xiao et al., 2022): per input channel c, divide the activation by
  s_c = max|X_c|**alpha / max|W_c|**(1 - alpha) and multiply the weight's column c by s_c. The
  division is folded into what produces the activation, so it costs nothing at run time and
  the fp32 function is unchanged: the RMSNorm weights for q/k/v and gate/up, the rows of v_proj
  for o_proj (attention is linear in the values), the rows of up_proj for down_proj (silu(g) * u
  is linear in u). max|X_c| comes from one fp32 prefill over a fixed prompt of the model's own
  embeddings, so the result is a function of the weights alone (and can be cached).
- Per-output-channel weight scales, so that a row of small weights keeps its own resolution.
- Per-row activation scales (decode/int8_rows.py), so that a sentence's numbers do not depend on
  the sentences beside it in a batch (fbgemm's own dynamic Linear scales the whole batch at once).
"""

from __future__ import annotations

import copy
import warnings
from collections.abc import Callable
from dataclasses import dataclass

import torch
import torch.nn as nn

from app.decode.layer_threads import each_layer
from app.decode.llama_step import LlamaLayer, layers_of


@dataclass(frozen=True)
class Recipe:
    """How the stack becomes int8. `alpha` None: no smoothing. `rows`: activation scales per
    row (decode/int8_rows.py, weights per channel); else fbgemm's dynamic Linear, one scale per
    batch, with `per_channel` weight scales or one per matrix."""

    alpha: float | None = 0.5
    per_channel: bool = True
    rows: bool = True


RECIPE = Recipe()
PER_TENSOR = Recipe(alpha=None, per_channel=False, rows=False)  # int8 before outliers were measured
PER_BATCH = Recipe(rows=False)  # smoothed, but one activation scale per batch
# The calibration prompt: text tokens then audio frames, as a sentence's prompt holds both.
CALIBRATION_TOKENS = 64
CALIBRATION_SEED = 1234


def calibration_prompt(
    emb_text: torch.Tensor, emb_code: torch.Tensor, tokens: int = CALIBRATION_TOKENS
) -> torch.Tensor:
    """(1, tokens, H) fp32 embeddings: half random text tokens, half random audio frames (the sum
    of one code per codebook, as ChatTTS embeds them); the same for the same weights."""
    g = torch.Generator(device="cpu").manual_seed(CALIBRATION_SEED)
    text = torch.randint(0, emb_text.shape[0], (tokens // 2,), generator=g)
    codes = torch.randint(
        0, emb_code.shape[1], (tokens - tokens // 2, emb_code.shape[0]), generator=g
    )
    audio = emb_code[0][codes[:, 0].to(emb_code.device)]
    for q in range(1, emb_code.shape[0]):
        audio = audio + emb_code[q][codes[:, q].to(emb_code.device)]
    return torch.cat([emb_text[text.to(emb_text.device)], audio]).unsqueeze(0).float()


def _input_maxima(stack: nn.Module, x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> dict:
    """max |input| per channel of every Linear in the stack, over one causal prefill of x."""
    maxima: dict[nn.Module, torch.Tensor] = {}

    def record(module, args):
        seen = args[0].detach().abs().reshape(-1, args[0].shape[-1]).amax(0).float()
        maxima[module] = torch.maximum(maxima[module], seen) if module in maxima else seen

    linears = [m for m in stack.modules() if isinstance(m, nn.Linear)]
    hooks = [m.register_forward_pre_hook(record) for m in linears]
    try:
        first = layers_of(stack)[0]
        t, heads = x.shape[1], first.heads
        head_dim = first.q_proj.out_features // heads
        cache = torch.zeros(
            len(layers_of(stack)), 1, heads, t, head_dim, dtype=x.dtype, device=x.device
        )
        mask = torch.ones(t, t, dtype=torch.bool, device=x.device).tril_()[None, None]
        positions = torch.arange(t, device=x.device)
        with torch.inference_mode():
            stack(
                x,
                cos[:t][None, None],
                sin[:t][None, None],
                mask,
                cache,
                cache.clone(),
                positions,
                t,
            )
    finally:
        for h in hooks:
            h.remove()
    return maxima


def _scales(act_max: torch.Tensor, weights: list[torch.Tensor], alpha: float) -> torch.Tensor:
    # max(max, -min): max |w| per column without a temporary the matrix's size
    w_max = torch.stack(
        [torch.maximum(w.detach().amax(0), w.detach().amin(0).neg()) for w in weights]
    )
    w_max = w_max.amax(0).float()
    s = act_max.clamp(min=1e-5).pow(alpha) / w_max.clamp(min=1e-5).pow(1 - alpha)
    return s.clamp(min=1e-5)


@torch.no_grad()
def _fold(producer_scale: torch.Tensor, s: torch.Tensor, consumers: list[nn.Linear]) -> None:
    """Divide what feeds the consumers by s (in `producer_scale`, a vector or a Linear's rows)
    and multiply the consumers' input columns by s: the same function, smoother inputs."""
    producer_scale.div_(s.to(producer_scale.dtype).reshape(-1, *([1] * (producer_scale.dim() - 1))))
    for linear in consumers:
        linear.weight.mul_(s.to(linear.weight.dtype))


@torch.no_grad()
def smooth(
    stack: nn.Module, x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor, alpha: float
) -> None:
    """Fold SmoothQuant scales into the stack's weights in place (see the module's docstring)."""
    maxima = _input_maxima(stack, x, cos, sin)
    each_layer(lambda layer: _smooth_layer(layer, maxima, alpha), layers_of(stack))


@torch.no_grad()
def _smooth_layer(layer: LlamaLayer, maxima: dict, alpha: float) -> None:
    """One layer's folds (their tensors are the layer's own, so layers fold side by side)."""
    qkv = [layer.q_proj, layer.k_proj, layer.v_proj]
    s_qkv = _scales(maxima[layer.q_proj], [m.weight for m in qkv], alpha)
    s_o = _scales(maxima[layer.o_proj], [layer.o_proj.weight], alpha)
    gate_up = [layer.gate_proj, layer.up_proj]
    s_mlp = _scales(maxima[layer.gate_proj], [m.weight for m in gate_up], alpha)
    s_down = _scales(maxima[layer.down_proj], [layer.down_proj.weight], alpha)
    _fold(layer.ln_in.data, s_qkv, qkv)
    _fold(layer.v_proj.weight.data, s_o, [layer.o_proj])
    if layer.v_proj.bias is not None:
        layer.v_proj.bias.data.div_(s_o)
    _fold(layer.ln_post.data, s_mlp, gate_up)
    _fold(layer.up_proj.weight.data, s_down, [layer.down_proj])
    if layer.up_proj.bias is not None:
        layer.up_proj.bias.data.div_(s_down)


def stack_calibration(
    stack: nn.Module, tokens: int = CALIBRATION_TOKENS
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """(x, cos, sin) from the stack alone, for a caller without the model's embeddings: unit
    Gaussian inputs, no rotation. The outlier channels come from the weights (norms, value and
    up rows), so they show here too; the model's own embeddings (`calibration_prompt`) are closer."""
    g = torch.Generator(device="cpu").manual_seed(CALIBRATION_SEED)
    first = layers_of(stack)[0]
    width, head_dim = first.q_proj.in_features, first.q_proj.out_features // first.heads
    device = first.ln_in.device
    x = torch.randn(1, tokens, width, generator=g).to(device)
    return (
        x,
        torch.ones(tokens, head_dim, device=device),
        torch.zeros(tokens, head_dim, device=device),
    )


def quantize(
    stack: nn.Module,
    calibration: Callable[[], tuple[torch.Tensor, torch.Tensor, torch.Tensor]] | None = None,
    in_place: bool = False,
    recipe: Recipe = RECIPE,
) -> nn.Module:
    """The stack with int8 Linear weights. `calibration()` gives (x, cos, sin) for smoothing
    (None: `stack_calibration`); called only when the recipe smooths. Not `in_place`: the
    caller's weights are left as they were."""
    from torch.ao.quantization import default_dynamic_qconfig, per_channel_dynamic_qconfig

    if not in_place:
        stack = copy.deepcopy(stack)
    if recipe.alpha is not None:
        smooth(
            stack,
            *(calibration() if calibration is not None else stack_calibration(stack)),
            alpha=recipe.alpha,
        )
    if recipe.rows:
        from app.decode.int8_rows import row_scaled

        return row_scaled(stack)
    qconfig = per_channel_dynamic_qconfig if recipe.per_channel else default_dynamic_qconfig
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return torch.ao.quantization.quantize_dynamic(
            stack, {nn.Linear: qconfig}, dtype=torch.qint8, inplace=True
        )
