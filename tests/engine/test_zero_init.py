"""ChatTTS's modules are built with zeros instead of random numbers (runtime/zero_init.py),
which is safe only because every weight is then loaded from the model's files: checked here
tensor by tensor, so a ChatTTS version that left a weight to its initialiser would fail."""

import torch
from safetensors.torch import load_file

from app.model.runtime.zero_init import RANDOM_INITS, zero_init


def test_every_weight_of_the_loaded_model_is_the_files_own(reference, synthesizer):
    chat, root = reference, synthesizer.store.root / "asset"
    for module, name in (
        (chat.vocos, "Vocos"),
        (chat.dvae, "DVAE"),
        (chat.decoder, "Decoder"),
        (chat.embed, "Embed"),
    ):
        stored = load_file(str(root / f"{name}.safetensors"))
        state = module.state_dict()
        assert state, name
        for key, tensor in state.items():
            assert key in stored, (
                f"{name}.{key} is not in the file: it would keep its initial zeros"
            )
            assert torch.equal(tensor.float().cpu(), stored[key].float()), f"{name}.{key}"


def test_inside_the_context_layers_start_at_zero_and_after_it_random_again():
    with zero_init():
        linear, embedding = torch.nn.Linear(8, 4), torch.nn.Embedding(5, 3)
        conv = torch.nn.Conv1d(2, 2, 3)
    for layer in (linear, embedding, conv):
        assert all(not p.any() for p in layer.parameters()), layer
    assert torch.nn.Linear(8, 4).weight.abs().sum() > 0
    assert all(
        getattr(torch.nn.init, name) is not None
        and getattr(torch.nn.init, name).__module__ == "torch.nn.init"
        for name in RANDOM_INITS
    )


def test_the_initialisers_come_back_when_the_build_fails():
    before = {name: getattr(torch.nn.init, name) for name in RANDOM_INITS}
    try:
        with zero_init():
            raise RuntimeError("a load that fails")
    except RuntimeError:
        pass
    assert {name: getattr(torch.nn.init, name) for name in RANDOM_INITS} == before


def test_overlapping_blocks_on_two_threads_leave_the_real_initialisers():
    """A start builds its parts while ChatTTS may load on another thread: without one
    block at a time, the second would save the first's zeros as the originals and put them
    back last, and every layer made afterwards would start at zero."""
    import threading

    original = torch.nn.init.kaiming_uniform_
    first_inside, first_may_leave = threading.Event(), threading.Event()

    def first():
        with zero_init():
            first_inside.set()
            first_may_leave.wait(10)

    def second():
        with zero_init():
            first_may_leave.wait(10)
            time_to_leave_after_first.wait(10)

    time_to_leave_after_first = threading.Event()
    a = threading.Thread(target=first)
    a.start()
    assert first_inside.wait(10)
    b = threading.Thread(target=second)
    b.start()
    b.join(0.3)  # it waits at the door (without a lock it would be inside)
    first_may_leave.set()
    a.join(10)
    time_to_leave_after_first.set()
    b.join(10)
    assert torch.nn.init.kaiming_uniform_ is original
    assert torch.nn.Linear(8, 4).weight.abs().sum() > 0


def test_no_init_writes_nothing_and_a_light_part_still_gets_every_weight_from_its_file(tiny_model):
    """model/runtime builds its parts without touching their initial memory (no_init): safe only
    because the load is strict and assigns, so every parameter and buffer is the file's own."""
    from unittest import mock

    from app.model.runtime.config import parts_config
    from app.model.runtime.nets import load_mel_decoder, load_vocoder
    from app.model.runtime.zero_init import no_init
    from app.model.schemas import read_model_dims
    from app.model.store import ModelStore

    with mock.patch.object(torch.Tensor, "zero_", side_effect=AssertionError("memory was written")):
        with no_init():
            torch.nn.Linear(8, 4), torch.nn.Conv1d(2, 2, 3)
    assert torch.nn.init.kaiming_uniform_.__module__ == "torch.nn.init"
    cfg = ModelStore(tiny_model).studio_config()
    light = parts_config(read_model_dims(tiny_model), cfg["spk_stat"])
    root = tiny_model / "asset"
    for module, name in (
        (load_mel_decoder(light.decoder, root / "Decoder.safetensors", "cpu"), "Decoder"),
        (load_vocoder(light.vocos, root / "Vocos.safetensors", "cpu"), "Vocos"),
    ):
        stored = load_file(str(root / f"{name}.safetensors"))
        state = module.state_dict()
        assert state.keys() == stored.keys(), name
        assert all(torch.equal(state[k], stored[k]) for k in stored), name
