"""The 20-layer decode step as one OpenVINO model: issue 44's spike beside ONNX Runtime's.

Built by hand from the fp32 LlamaStack's weights (app/decode/llama_step.py) with OpenVINO's
opset, in the shape its CPU plugin fuses: RMSNorm, ScaledDotProductAttention over a stateful KV
cache (ReadValue -> Concat -> SDPA, Assign: the plugin keeps the cache itself and appends in
place), and for the projections either fp32 MatMul or compressed weights (int8 per output
channel, or int4 per block of 32, each with its scales: the decompression pattern the plugin
runs with int8 activations quantized per row and per group, DYNAMIC_QUANTIZATION_GROUP_SIZE).
q/k/v and gate/up are one matrix each.

The loop's contract keeps the KV cache in the loop's own tensors (rows leave and join by copying
them), so `OvLoop` writes each call's new keys and values there too, and loads the model's state
from them whenever the loop hands it a cache it did not just write (a new request, a row that
left or joined).
"""

from __future__ import annotations

import numpy as np
import torch

DYNAMIC_GROUP = 32


def _ops():
    import openvino.opset13 as ops

    return ops


def _compress(weight: np.ndarray, bits: int, block: int) -> tuple[np.ndarray, np.ndarray]:
    """(N, K) fp32 -> symmetric int8 per row (N, K) and scales (N, 1), or int4 per block of
    `block` (N, K/block, block) int8 values in -7..7 and scales (N, K/block, 1)."""
    n, k = weight.shape
    top = (1 << (bits - 1)) - 1
    w = weight if bits == 8 else weight.reshape(n, k // block, block)
    scale = np.abs(w).max(-1, keepdims=True) / top
    scale[scale == 0] = 1.0
    q = np.clip(np.rint(w / scale), -top, top).astype(np.int8)
    return q, scale.astype(np.float32)


class _Builder:
    def __init__(self, weights: str, block: int):
        import openvino as ov

        self.ov, self.ops = ov, _ops()
        self.weights, self.block = weights, block

    def const(self, array):
        """A Constant holding a copy of `array` (not through Python lists: weights are big)."""
        return self.ov.op.Constant(np.ascontiguousarray(array), shared_memory=False)

    def int4(self, q: np.ndarray):
        """A Constant of type i4 from values -8..7: two per byte, the first in the low nibble."""
        ov = self.ov
        nibbles = q.reshape(-1).astype(np.uint8) & 0x0F
        tensor = ov.Tensor(ov.Type.i4, ov.Shape(list(q.shape)))
        tensor.data[...] = (nibbles[0::2] | (nibbles[1::2] << 4)).reshape(tensor.data.shape)
        return ov.op.Constant(tensor, shared_memory=False)

    def linear(self, x, weight: torch.Tensor):
        """x @ weight.T for a Linear weight (N, K): fp32, or decompressed from int8 / int4."""
        ops, ov = self.ops, self.ov
        w = weight.detach().float().numpy()
        n, k = w.shape
        if self.weights == "fp32":
            return ops.matmul(x, self.const(w), False, True)
        bits = 4 if self.weights == "int4" else 8
        q, scale = _compress(w, bits, self.block)
        packed = self.int4(q) if bits == 4 else self.const(q)
        decompressed = ops.multiply(ops.convert(packed, ov.Type.f32), self.const(scale))
        if bits == 4:
            decompressed = ops.reshape(decompressed, self.const(np.array([n, k])), False)
        return ops.matmul(x, decompressed, False, True)

    def rms(self, x, weight: torch.Tensor, eps: float):
        ops = self.ops
        square = ops.power(x, self.const(np.array(2.0, np.float32)))
        mean = ops.reduce_mean(square, self.const(np.array([-1])), True)
        root = ops.sqrt(ops.add(mean, self.const(np.array(eps, np.float32))))
        scaled = ops.multiply(x, ops.divide(self.const(np.array(1.0, np.float32)), root))
        return ops.multiply(scaled, self.const(weight.detach().float().numpy()))

    def rotate(self, x, cos, sin, half: int):
        ops = self.ops
        first, second = ops.variadic_split(x, -1, self.const(np.array([half, half]))).outputs()
        rotated = ops.concat([ops.negative(second), first], -1)
        return ops.add(ops.multiply(x, cos), ops.multiply(rotated, sin))


def build_step(stack, weights: str = "int8", block: int = 32):
    """The stateful ov.Model of LlamaStack `stack`'s forward for any batch and length.

    Inputs: x (B, S, H) fp32; cos, sin (B, 1, S, d): each token's rotary tables (the loop's);
    bias (B, 1, S, P + S) fp32, 0 where a query may see a key and -inf where not. State: per
    layer key_i / value_i (B, heads, P, d), the P positions written before (empty at first);
    the call appends its S. Outputs: hidden (B, S, H) after the final norm, then new_key_i,
    new_value_i (B, heads, S, d) per layer (what the loop's own cache gets)."""
    import openvino as ov
    from openvino.op.util import Variable, VariableInfo

    from app.decode.llama_step import layers_of

    layers = layers_of(stack)
    heads = layers[0].heads
    width = layers[0].q_proj.weight.shape[1]
    head_dim = width // heads
    inter = layers[0].gate_proj.weight.shape[0]
    b = _Builder(weights, block)
    ops = b.ops
    f32 = ov.Type.f32
    x_in = ops.parameter([-1, -1, width], f32, name="x")
    cos = ops.parameter([-1, 1, -1, head_dim], f32, name="cos")
    sin = ops.parameter([-1, 1, -1, head_dim], f32, name="sin")
    bias = ops.parameter([-1, 1, -1, -1], f32, name="bias")
    batch = ops.gather(ops.shape_of(x_in), b.const(np.array([0])), b.const(np.array(0)))
    empty_shape = ops.concat([batch, b.const(np.array([heads, 0, head_dim]))], 0)
    empty = ops.broadcast(b.const(np.array(0.0, np.float32)), empty_shape)
    to_heads = b.const(np.array([0, 0, heads, head_dim]))
    to_width = b.const(np.array([0, 0, width]))
    swap = b.const(np.array([0, 2, 1, 3]))
    scale = b.const(np.array(head_dim**-0.5, np.float32))
    sinks, outputs = [], []
    x = x_in
    for i, layer in enumerate(layers):
        h = b.rms(x, layer.ln_in, layer.eps)
        qkv_w = torch.cat([layer.q_proj.weight, layer.k_proj.weight, layer.v_proj.weight])
        qkv = b.linear(h, qkv_w)
        q, k, v = ops.variadic_split(qkv, -1, b.const(np.array([width] * 3))).outputs()
        q, k, v = (ops.transpose(ops.reshape(t, to_heads, True), swap) for t in (q, k, v))
        q = b.rotate(q, cos, sin, head_dim // 2)
        k = b.rotate(k, cos, sin, head_dim // 2)
        seen = []
        for kind, new in (("key", k), ("value", v)):
            info = VariableInfo()
            info.data_shape = ov.PartialShape([-1, heads, -1, head_dim])
            info.data_type = f32
            info.variable_id = f"{kind}_{i}"
            variable = Variable(info)
            past = ops.read_value(empty, variable)
            joined = ops.concat([past, new], 2)
            sinks.append(ops.assign(joined, variable))
            seen.append(joined)
            outputs.append(ops.result(new, name=f"new_{kind}_{i}"))
        a = ops.scaled_dot_product_attention(q, seen[0], seen[1], bias, scale)
        a = ops.reshape(ops.transpose(a, swap), to_width, True)
        x = ops.add(x, b.linear(a, layer.o_proj.weight))
        h = b.rms(x, layer.ln_post, layer.eps)
        gu_w = torch.cat([layer.gate_proj.weight, layer.up_proj.weight])
        gate, up = ops.variadic_split(
            b.linear(h, gu_w), -1, b.const(np.array([inter, inter]))
        ).outputs()
        x = ops.add(x, b.linear(ops.multiply(ops.swish(gate), up), layer.down_proj.weight))
    hidden = ops.result(b.rms(x, stack.norm, stack.eps), name="hidden")
    return ov.Model([hidden, *outputs], sinks, [x_in, cos, sin, bias], "chattts_step")


def build_floor(stack, weights: str = "int8", block: int = 32):
    """The step's projections alone (the same matrices, nothing between them): the matmul floor
    a whole step is measured against. Inputs a (B, 1, H), m (B, 1, I)."""
    import openvino as ov

    from app.decode.llama_step import layers_of

    layers = layers_of(stack)
    width = layers[0].q_proj.weight.shape[1]
    inter = layers[0].gate_proj.weight.shape[0]
    b = _Builder(weights, block)
    a = b.ops.parameter([-1, 1, width], ov.Type.f32, name="a")
    m = b.ops.parameter([-1, 1, inter], ov.Type.f32, name="m")
    outs = []
    for layer in layers:
        qkv_w = torch.cat([layer.q_proj.weight, layer.k_proj.weight, layer.v_proj.weight])
        gu_w = torch.cat([layer.gate_proj.weight, layer.up_proj.weight])
        outs += [
            b.linear(a, qkv_w),
            b.linear(a, layer.o_proj.weight),
            b.linear(a, gu_w),
            b.linear(m, layer.down_proj.weight),
        ]
    return ov.Model([b.ops.result(o) for o in outs], [a, m], "chattts_floor")


def compile_model(model, threads: int | None = None):
    """On the CPU in fp32 arithmetic (not the bf16 the plugin picks where AMX is), the KV cache
    kept in fp32, compressed weights' activations quantized per row in groups of 32."""
    import openvino as ov

    config = {
        "INFERENCE_PRECISION_HINT": "f32",
        "KV_CACHE_PRECISION": "f32",
        "DYNAMIC_QUANTIZATION_GROUP_SIZE": str(DYNAMIC_GROUP),
        "PERFORMANCE_HINT": "LATENCY",
        "NUM_STREAMS": "1",
        "INFERENCE_NUM_THREADS": str(threads or torch.get_num_threads()),
    }
    return ov.Core().compile_model(model, "CPU", config)


class OvLoop:
    """A DecodeLoop's step pieces with the layers run by OpenVINO (the fp32 loop `loop` keeps the
    embeddings, the heads and the rotary tables)."""

    def __init__(
        self,
        loop,
        stack,
        weights: str = "int8",
        block: int = 32,
        threads: int | None = None,
        smoothing: float | None = 0.5,
    ):
        """`stack`: the model's eager fp32 LlamaStack. Compressed weights are first smoothed as
        int8 today is (decode/int8.py; `smoothing` = alpha, None: not), on a copy."""
        import copy

        from app.decode import int8

        if weights != "fp32" and smoothing is not None:
            stack = copy.deepcopy(stack)
            int8.smooth(stack, *loop._calibration(), alpha=smoothing)
        self.loop = loop
        self.layers, self.heads, self.head_dim = loop.layers, loop.heads, loop.head_dim
        self.num_vq = loop.num_vq
        self.compiled = compile_model(build_step(stack, weights, block), threads)
        self.request = self.compiled.create_infer_request()
        self._states = {s.name: s for s in self.request.query_state()}
        self._bound: tuple = (None, None, -1)  # the loop's cache the state holds, and its length

    def allocate_cache(self, batch: int, length: int, make=torch.zeros):
        shape = (self.layers, batch, self.heads, length, self.head_dim)
        return make(shape, dtype=torch.float32), make(shape, dtype=torch.float32)

    def _load_state(self, k: torch.Tensor, v: torch.Tensor, written: int) -> None:
        """The model's state := the first `written` positions of the loop's cache."""
        import openvino as ov

        if written == 0:
            self.request.reset_state()
            return
        for i in range(self.layers):
            for kind, cache in (("key", k), ("value", v)):
                part = np.ascontiguousarray(cache[i][:, :, :written].numpy())
                self._states[f"{kind}_{i}"].state = ov.Tensor(part)

    def run_stack(self, x, positions_per_row, mask, k, v, write_at, length):
        """DecodeLoop.run_stack's contract: the call writes slots length - S .. length - 1 (a
        step: one; a prefill: 0..S-1, `write_at`) and attends to the first `length`."""
        steps = x.shape[1]
        written = length - steps
        assert int(write_at[0]) == written, (write_at, length)
        if self._bound[0] is not k or self._bound[1] is not v or self._bound[2] != written:
            self._load_state(k, v, written)
        cos, sin = self.loop.rotary(positions_per_row.expand(x.shape[0], steps))
        bias = torch.zeros(mask.shape, dtype=torch.float32).masked_fill_(~mask, float("-inf"))
        bias = bias.expand(x.shape[0], 1, steps, length)
        self.request.infer(
            {
                "x": np.ascontiguousarray(x.float().numpy()),
                "cos": np.ascontiguousarray(cos.float().numpy()),
                "sin": np.ascontiguousarray(sin.float().numpy()),
                "bias": np.ascontiguousarray(bias.numpy()),
            },
            share_inputs=True,
        )
        outs = [
            torch.from_numpy(self.request.get_output_tensor(j).data)
            for j in range(1 + 2 * self.layers)
        ]
        for i in range(self.layers):
            k[i, :, :, written:length] = outs[1 + 2 * i]
            v[i, :, :, written:length] = outs[2 + 2 * i]
        self._bound = (k, v, length)
        return outs[0].clone()

    def logits(self, hidden, audio: bool):
        return self.loop.logits(hidden, audio)

    def embed_tokens(self, tokens, audio: bool):
        return self.loop.embed_tokens(tokens, audio)
