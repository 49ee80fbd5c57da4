"""The command line is one argparse tree: each command module sets its own `func`, and
`models` has subcommands of its own. Reachability, option positions, help and usage errors."""

import pytest

from app.cli import doctor, main, normalize, random_model, self_test, synth, window
from app.cli.models import download, import_model, remove, status
from app.cli.parser import build_parser, command_names
from app.core.request import SamplingParams, SynthesisRequest

ROUTES = [
    (["synth", "hi", "-o", "x.wav"], synth),
    (["normalize", "hi"], normalize),
    (["doctor", "--snapshot", "s.json"], doctor),
    (["self-test"], self_test),
    (["test-model", "folder"], random_model),
    (["models", "status"], status),
    (["models", "verify"], status),
    (["models", "download", "--source", "custom", "--url", "http://127.0.0.1:9"], download),
    (["models", "import", "some/folder", "--link"], import_model),
    (["models", "remove", "--yes"], remove),
    (["--model", "m", "story.txt"], window),
    ([], window),
]


@pytest.fixture
def reached(monkeypatch):
    """Every command's `run` replaced by one that records which module it belongs to."""
    seen = []
    for module in {module for _argv, module in ROUTES}:
        monkeypatch.setattr(
            module, "run", lambda args, module=module: seen.append((module, args)) or 7
        )
    return seen


@pytest.mark.parametrize("argv, module", ROUTES, ids=[" ".join(a) or "(none)" for a, _m in ROUTES])
def test_each_command_reaches_its_module(argv, module, reached):
    assert main(argv) == 7
    assert [m for m, _args in reached] == [module]


def test_models_subcommands_keep_their_options(reached):
    main(["models", "status"])
    main(["models", "verify"])
    main(["models", "import", "src", "--link", "--model", "m"])
    main(["models", "download", "--source", "custom", "--url", "http://mirror"])
    status_args, verify_args, import_args, download_args = (args for _m, args in reached)
    assert status_args.use_cache is True and verify_args.use_cache is False
    assert (import_args.path, import_args.link, import_args.model) == ("src", True, "m")
    assert (download_args.source, download_args.url) == ("custom", "http://mirror")


@pytest.mark.parametrize(
    "argv",
    [
        ["models", "--model", "D", "--json", "status"],
        ["models", "status", "--model", "D", "--json"],
        ["models", "--json", "status", "--model", "D"],
    ],
)
def test_model_and_json_count_before_or_after_the_subcommand(argv, reached):
    main(argv)
    args = reached[0][1]
    assert args.model == "D" and args.json is True


def test_models_without_model_option_uses_the_configured_folder(reached):
    main(["models", "remove"])
    args = reached[0][1]
    assert args.model is None and args.json is False and args.yes is False


@pytest.mark.parametrize(
    "argv, says",
    [
        (["models", "frob"], "invalid choice: 'frob'"),
        (["models"], "ACTION"),
        (["models", "status", "--yes"], "--yes"),
        (["synth", "hi", "-o", "x.wav", "--no-such-option"], "--no-such-option"),
        (["doctor", "extra"], "extra"),
    ],
)
def test_a_usage_error_is_one_error_line_and_exit_2(argv, says, capsys, reached):
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    err = capsys.readouterr().err
    assert stopped.value.code == 2
    assert err.startswith("error: ") and err.count("\n") == 1 and says in err
    assert "--help" in err
    assert reached == []


def test_help_lists_every_command(capsys):
    with pytest.raises(SystemExit) as stopped:
        main(["--help"])
    out = capsys.readouterr().out
    assert stopped.value.code == 0
    names = command_names(build_parser())
    assert names == {
        "synth",
        "normalize",
        "models",
        "self-test",
        "doctor",
        "test-model",
        "serve",
        "narrate",
        "check",
    }
    assert all(f"    {name} " in out for name in names), out
    assert "The window: chattts-studio [--model DIR]" in out


def test_models_help_lists_its_subcommands(capsys):
    with pytest.raises(SystemExit):
        main(["models", "--help"])
    out = capsys.readouterr().out
    assert all(
        f"    {name} " in out for name in ("status", "verify", "download", "import", "remove")
    ), out


def test_each_subcommand_has_its_own_help(capsys):
    for name in command_names(build_parser()):
        with pytest.raises(SystemExit) as stopped:
            main([name, "--help"])
        assert stopped.value.code == 0
        assert capsys.readouterr().out.startswith(f"usage: chattts-studio {name} ")


def test_synth_defaults_are_the_request_defaults(reached):
    main(["synth", "hi", "-o", "x.wav"])
    args = reached[0][1]
    sampling, request = SamplingParams(), SynthesisRequest("hi")
    assert (args.temperature, args.top_p, args.top_k, args.max_tokens) == (
        sampling.temperature,
        sampling.top_p,
        sampling.top_k,
        sampling.max_new_tokens,
    )
    assert (args.seed, args.speed, not args.no_refine, not args.no_voice_lock) == (
        request.seed,
        request.speed,
        request.refine_text,
        request.voice_lock,
    )


@pytest.mark.parametrize(
    "argv, said",
    [
        (["docter"], "error: unknown command 'docter' (did you mean doctor?)\n"),
        (["synthesize", "hi"], "error: unknown command 'synthesize' (did you mean synth?)\n"),
        (
            ["--lang", "en", "modles", "status"],
            "error: unknown command 'modles' (did you mean models?)\n",
        ),
    ],
)
def test_a_mistyped_command_is_an_error_with_the_closest_command(
    argv, said, capsys, reached, tmp_path, monkeypatch
):
    """`docter` used to open the window, which said "The input file docter does not exist";
    `synthesize hi` blamed "unrecognized arguments"."""
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    assert stopped.value.code == 2
    assert capsys.readouterr().err == said
    assert reached == []


def test_an_unknown_word_with_no_close_command_lists_the_commands(
    capsys, reached, tmp_path, monkeypatch
):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as stopped:
        main(["xyzzy"])
    err = capsys.readouterr().err
    assert stopped.value.code == 2 and err.count("\n") == 1
    assert err.startswith("error: unknown command 'xyzzy', and there is no file of that name")
    assert "doctor" in err and "chattts-studio --help" in err


def test_a_mistyped_command_is_said_in_the_language_asked(capsys, reached, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit):
        main(["--lang", "zh_CN", "docter"])
    err = capsys.readouterr().err
    assert "docter" in err and "doctor" in err and "unknown command" not in err


@pytest.mark.parametrize("name", ["docter", "notes"])
def test_an_existing_file_of_that_name_still_opens_in_the_window(
    name, reached, tmp_path, monkeypatch
):
    monkeypatch.chdir(tmp_path)
    (tmp_path / name).write_text("Hello.")
    assert main([name]) == 7
    assert [m for m, _args in reached] == [window] and reached[0][1].file == name
