"""The Llama stack as one ONNX Runtime graph, built by hand from the fp32 LlamaStack's weights
(decode/llama_step.py) with ONNX Runtime's fused CPU operators: SkipSimplifiedLayerNormalization
(residual add + RMSNorm), GroupQueryAttention (rotary, the KV cache written in place through a
shared past/present buffer, the loop's positions and mask) and, for the projections, MatMulNBits
(block-wise weights of 4 or 8 bits, activations quantized to int8 per block of each row with
accuracy_level 4, so a row's numbers do not depend on its batch) or plain fp32 MatMul. q/k/v and
gate/up are one matrix each. decode/ort_step.py runs it; tests/engine/test_ort_decode.py holds it
equal to the PyTorch step.
"""

from __future__ import annotations

import numpy as np
import torch
from onnx import TensorProto, helper, numpy_helper

MS = "com.microsoft"


def quantize_blocks(weight: np.ndarray, bits: int, block: int) -> tuple[np.ndarray, np.ndarray]:
    """(N, K) fp32 -> MatMulNBits' B (N, K/block, block*bits/8) uint8 and scales (N, K/block):
    symmetric per block, stored with the operator's default zero point 2**(bits-1)."""
    n, k = weight.shape
    assert k % block == 0, (k, block)
    w = weight.reshape(n, k // block, block).astype(np.float32)
    top = (1 << (bits - 1)) - 1
    scale = np.abs(w).max(-1) / top
    scale[scale == 0] = 1.0
    q = np.clip(np.rint(w / scale[..., None]), -top, top).astype(np.int32) + (1 << (bits - 1))
    if bits == 8:
        packed = q.astype(np.uint8)
    elif bits == 4:
        q = q.astype(np.uint8)
        packed = (q[..., 0::2] | (q[..., 1::2] << 4)).astype(np.uint8)
    else:
        raise ValueError(bits)
    return packed, scale.astype(np.float32)


class _Graph:
    def __init__(self, bits: int | None, block: int):
        self.bits, self.block = bits, block
        self.nodes: list = []
        self.inits: list = []
        self._n = 0

    def name(self, stem: str) -> str:
        self._n += 1
        return f"{stem}_{self._n}"

    def init(self, name: str, array: np.ndarray) -> str:
        self.inits.append(numpy_helper.from_array(np.ascontiguousarray(array), name))
        return name

    def node(self, op: str, inputs: list[str], outputs: int | list[str] = 1, domain="", **attrs):
        outs = (
            [self.name(op) for _ in range(outputs)] if isinstance(outputs, int) else list(outputs)
        )
        self.nodes.append(helper.make_node(op, inputs, outs, domain=domain or None, **attrs))
        return outs if len(outs) > 1 else outs[0]

    def linear(self, x: str, weight: torch.Tensor, stem: str) -> str:
        """x @ weight.T for a Linear weight (N, K)."""
        w = weight.detach().float().numpy()
        n, k = w.shape
        if self.bits is None:
            return self.node("MatMul", [x, self.init(stem, w.T.copy())])
        bits = self.bits
        packed, scales = quantize_blocks(w, bits, self.block)
        ins = [x, self.init(stem + "_q", packed), self.init(stem + "_s", scales)]
        return self.node(
            "MatMulNBits",
            ins,
            domain=MS,
            K=k,
            N=n,
            bits=bits,
            block_size=self.block,
            accuracy_level=4,
        )


def build_step(stack, cos: torch.Tensor, sin: torch.Tensor, bits: int | None = 8, block=32):
    """The ONNX model (bytes) of LlamaStack `stack`'s forward for any batch and length.

    Inputs: x (B, S, H) fp32; seqlens_k (B,) int32 = each row's length after this call - 1;
    total_sequence_length () int32; position_ids (B, S) int64, each token's rotary position;
    attention_bias (B, 1, S, T) fp32, 0 where a query may see a key and -inf where not (the
    loop's boolean mask: padding hidden); past_key_i / past_value_i (B, heads, MAX, d) per layer.
    Outputs: hidden (B, S, H) after the final norm; present_key_i / present_value_i (bind them to
    the past buffers: written in place)."""
    from app.decode.llama_step import layers_of

    layers = layers_of(stack)
    heads = layers[0].heads
    width = layers[0].q_proj.weight.shape[1]
    head_dim = width // heads
    inter = layers[0].gate_proj.weight.shape[0]
    g = _Graph(bits, block)
    g.init("cos_cache", cos[:, : head_dim // 2].float().numpy())
    g.init("sin_cache", sin[:, : head_dim // 2].float().numpy())
    split = g.init("gate_up_split", np.array([inter, inter], dtype=np.int64))
    x = "x"
    h = g.node(
        "SimplifiedLayerNormalization",
        [x, g.init("ln_in_0", layers[0].ln_in.detach().numpy())],
        axis=-1,
        epsilon=layers[0].eps,
    )
    graph_inputs = [
        helper.make_tensor_value_info("x", TensorProto.FLOAT, ["B", "S", width]),
        helper.make_tensor_value_info("seqlens_k", TensorProto.INT32, ["B"]),
        helper.make_tensor_value_info("total_sequence_length", TensorProto.INT32, []),
        helper.make_tensor_value_info("position_ids", TensorProto.INT64, ["B", "S"]),
        helper.make_tensor_value_info("attention_bias", TensorProto.FLOAT, ["B", 1, "S", "T"]),
    ]
    graph_outputs = []
    for i, (layer, (qkv_w, o_w, gu_w, down_w)) in enumerate(zip(layers, stack_matrices(stack))):
        qkv = g.linear(h, qkv_w, f"qkv_{i}")
        cache = ["B", heads, "MAX", head_dim]
        for kind in ("key", "value"):
            graph_inputs.append(
                helper.make_tensor_value_info(f"past_{kind}_{i}", TensorProto.FLOAT, cache)
            )
            graph_outputs.append(
                helper.make_tensor_value_info(f"present_{kind}_{i}", TensorProto.FLOAT, cache)
            )
        attn = g.node(
            "GroupQueryAttention",
            [
                qkv,
                "",
                "",
                f"past_key_{i}",
                f"past_value_{i}",
                "seqlens_k",
                "total_sequence_length",
                "cos_cache",
                "sin_cache",
                "position_ids",
                "attention_bias",
            ],
            [g.name("attn"), f"present_key_{i}", f"present_value_{i}"],
            domain=MS,
            num_heads=heads,
            kv_num_heads=heads,
            do_rotary=1,
            rotary_interleaved=0,
            scale=float(head_dim**-0.5),
        )[0]
        o = g.linear(attn, o_w, f"o_{i}")
        h, _m, _v, x = g.node(
            "SkipSimplifiedLayerNormalization",
            [o, x, g.init(f"ln_post_{i}", layer.ln_post.detach().numpy())],
            4,
            domain=MS,
            epsilon=layer.eps,
        )
        gate, up = g.node("Split", [g.linear(h, gu_w, f"gate_up_{i}"), split], 2, axis=-1)
        silu = g.node("Mul", [gate, g.node("Sigmoid", [gate])])
        down = g.linear(g.node("Mul", [silu, up]), down_w, f"down_{i}")
        last = i == len(layers) - 1
        norm = stack.norm if last else layers[i + 1].ln_in
        eps = stack.eps if last else layers[i + 1].eps
        outs = ["hidden", g.name("m"), g.name("v"), g.name("res")] if last else 4
        h, _m, _v, x = g.node(
            "SkipSimplifiedLayerNormalization",
            [down, x, g.init(f"ln_{i + 1}", norm.detach().numpy())],
            outs,
            domain=MS,
            epsilon=eps,
        )
    graph_outputs.insert(
        0, helper.make_tensor_value_info("hidden", TensorProto.FLOAT, ["B", "S", width])
    )
    return _serialized(
        helper.make_graph(g.nodes, "chattts_step", graph_inputs, graph_outputs, g.inits)
    )


def build_floor(matrices: list[list[torch.Tensor]], bits: int | None = 8, block: int = 32) -> bytes:
    """The step's projections alone (one call each, nothing between them): the matmul floor a
    whole step is measured against. `matrices`: per layer, the Linear weights (N, K) of q/k/v,
    o, gate/up and down (their values do not change the time). Inputs a (B, 1, H), m (B, 1, I)."""
    width = matrices[0][0].shape[1]
    inter = matrices[0][3].shape[1]
    g = _Graph(bits, block)
    outs = []
    for i, (qkv_w, o_w, gu_w, down_w) in enumerate(matrices):
        outs += [
            g.linear("a", qkv_w, f"qkv_{i}"),
            g.linear("a", o_w, f"o_{i}"),
            g.linear("a", gu_w, f"gate_up_{i}"),
            g.linear("m", down_w, f"down_{i}"),
        ]
    graph = helper.make_graph(
        g.nodes,
        "chattts_floor",
        [
            helper.make_tensor_value_info("a", TensorProto.FLOAT, ["B", 1, width]),
            helper.make_tensor_value_info("m", TensorProto.FLOAT, ["B", 1, inter]),
        ],
        [helper.make_tensor_value_info(o, TensorProto.FLOAT, None) for o in outs],
        g.inits,
    )
    return _serialized(graph)


def _serialized(graph) -> bytes:
    # Opset 17 and IR 8: what ONNX Runtime 1.17 and newer all read.
    model = helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", 17), helper.make_opsetid(MS, 1)]
    )
    model.ir_version = 8
    return model.SerializeToString()


def stack_matrices(stack) -> list[list[torch.Tensor]]:
    """A LlamaStack's matrices as `build_floor` takes them."""
    from app.decode.llama_step import layers_of

    return [
        [
            torch.cat([layer.q_proj.weight, layer.k_proj.weight, layer.v_proj.weight]),
            layer.o_proj.weight,
            torch.cat([layer.gate_proj.weight, layer.up_proj.weight]),
            layer.down_proj.weight,
        ]
        for layer in layers_of(stack)
    ]


def session(model: bytes, threads: int | None = None, spinning: bool = False):
    """A CPU session of `model` with `threads` threads (default: PyTorch's). Its threads do not
    spin for work after a run unless `spinning`: the loop runs the heads and sampling in PyTorch
    between two steps, on the same cores (bench/int8_speed.py: ort-int8 against ort-int8-spin)."""
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = threads or torch.get_num_threads()
    options.inter_op_num_threads = 1
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    options.add_session_config_entry("session.intra_op.allow_spinning", "1" if spinning else "0")
    return ort.InferenceSession(model, options, providers=["CPUExecutionProvider"])
