"""Every numeric option has a range; hostile input files and texts end in one sentence, exit 2."""

import argparse

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.cli import main
from app.cli.arguments import number
from app.core.errors import InputTextError
from app.core.request import SEED_MAX, ParameterError, SamplingParams, SynthesisRequest
from app.text.prepare import prepare_text


def run(args, capsys):
    code = main(["synth", *args])
    out = capsys.readouterr()
    return code, out.err


@pytest.mark.parametrize(
    "option,value,says",
    [
        ("--seed", str(10**30), "--seed must be between 0 and 4294967295"),
        ("--seed", "-1", "--seed must be between 0"),
        ("--seed", "1.5", "--seed must be a whole number"),
        ("--max-tokens", "-5", "--max-tokens must be at least 1"),
        ("--temperature", "-1", "--temperature must be greater than 0"),
        ("--temperature", "inf", "--temperature must be a finite number"),
        ("--top-k", "0", "--top-k must be at least 1"),
        ("--top-p", "5", "--top-p must be greater than 0 and at most 1"),
        ("--top-p", "0", "--top-p must be greater than 0"),
        ("--speed", "10", "--speed must be between 0 and 9"),
    ],
)
def test_out_of_range_numbers_are_one_sentence_and_exit_2(option, value, says, tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["synth", "hello", "-o", str(tmp_path / "x.wav"), f"{option}={value}"])
    err = capsys.readouterr().err
    assert exit_.value.code == 2
    assert (
        err.startswith("error: ")
        and says in err
        and err.count("\n") == 1
        and err.rstrip().endswith(".")
    )
    assert not (tmp_path / "x.wav").exists()


def test_output_equal_to_the_input_file_is_refused_and_the_text_kept(tmp_path, capsys):
    text = tmp_path / "in.txt"
    text.write_text("hello there")
    code, err = run(["--file", str(text), "-o", str(tmp_path / "." / "in.txt")], capsys)
    assert code == 2 and "is the input file" in err
    assert text.read_text() == "hello there"


def test_dev_zero_as_input_is_refused_quickly(tmp_path, capsys):
    code, err = run(["--file", "/dev/zero", "-o", str(tmp_path / "x.wav")], capsys)
    assert code == 2 and "/dev/zero is longer than the limit" in err


def test_text_of_control_tokens_only_is_refused(tmp_path, capsys):
    code, err = run(["[uv_break] [laugh]。", "-o", str(tmp_path / "x.wav")], capsys)
    assert code == 2 and "only control tokens" in err
    with pytest.raises(InputTextError, match="only control tokens"):
        prepare_text("[lbreak][speed_5]!!")


def test_an_unbalanced_bracket_is_reported_and_the_text_after_it_kept():
    prepared = prepare_text("Hello [uv_break there friend.")
    assert "friend" in prepared.spoken and "[" not in prepared.spoken
    assert any("unmatched '['" in w for w in prepared.warnings)
    prepared = prepare_text("Hi [nonsense] there ] you.")
    assert "you" in prepared.spoken
    assert len(prepared.warnings) == 2 and "[nonsense]" in prepared.warnings[0]


@pytest.mark.parametrize(
    "kwargs",
    [
        dict(seed=SEED_MAX + 1),
        dict(seed=-1),
        dict(speed=10),
        dict(oral=10),
        dict(laugh=3),
        dict(break_level=-1),
        dict(seed=True),
    ],
)
def test_the_window_request_refuses_the_same_values(kwargs):
    with pytest.raises(ParameterError):
        SynthesisRequest("hi", **kwargs)


@pytest.mark.parametrize(
    "kwargs",
    [
        dict(temperature=0),
        dict(temperature=float("nan")),
        dict(top_p=1.01),
        dict(top_k=0),
        dict(max_new_tokens=0),
        dict(top_k=2.5),
    ],
)
def test_sampling_params_refuse_out_of_range(kwargs):
    with pytest.raises(ParameterError):
        SamplingParams(**kwargs)


def test_a_request_changed_after_construction_is_checked_again():
    request = SynthesisRequest("hi")
    request.sampling.top_p = 7
    with pytest.raises(ParameterError, match="top-p"):
        request.validate()


@settings(max_examples=300, deadline=None)
@given(text=st.text(max_size=30), integer=st.booleans())
def test_number_types_accept_only_in_range_values(text, integer):
    parse = number("--x", 1, 9, integer=integer)
    try:
        value = parse(text)
    except argparse.ArgumentTypeError as exc:
        assert str(exc).startswith("--x must be")
    else:
        assert 1 <= value <= 9 and (isinstance(value, int) or not integer)


@settings(max_examples=300, deadline=None)
@given(text=st.text(alphabet=st.sampled_from("[]ab _uvlbreakh。 "), max_size=40))
def test_no_bracket_ever_reaches_the_model_unreported(text):
    try:
        prepared = prepare_text(text)
    except InputTextError:
        return
    from app.text.control_tokens import INLINE

    spoken = prepared.spoken
    for token in INLINE:
        spoken = spoken.replace(token, "")
    assert "[" not in spoken and "]" not in spoken
    assert prepared.warnings or text.count("[") == sum(text.count(t) for t in INLINE)
