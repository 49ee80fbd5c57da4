"""What bench/mutation/mutation.py runs: each group's files to mutate and the tests that are
theirs (GROUPS), and the workers a group gets where two would leave the cores idle (CHILDREN).
A file split out of a mutated module joins its group here.
"""

from __future__ import annotations

# Hypothesis property tests are left out of mutation runs: each draws hundreds of examples per
# mutant (seconds each), and a verdict that rests on a random example is not reproducible.
_PROPERTY_TESTS = " or ".join(
    (
        "never_exceeds_the_bound",
        "keeps_control_tokens_and_latin_words_whole",
        "as_cn2an_writes_them",
        "never_cut_inside",
        "never_cuts_inside",
        "stays_with_its_unit",
        "without_a_digit_left",
    )
)

# group -> (files to mutate, the tests that are theirs). Tests that need the tiny model are
# chosen where a fast one would not exercise the code (the decode loop, the vocoder).
GROUPS = {
    "decode.sampling": (
        ["app/decode/sampling.py"],
        [
            "tests/engine/test_sampling_vs_upstream.py::test_the_penalty_divides_positive_and_multiplies_negative_logits",
            "tests/engine/test_decode_loop.py::test_repetition_penalty_and_filters_follow_chattts",
            "tests/engine/test_decode_loop.py::test_draw_follows_the_distribution",
            "tests/engine/test_sampling_edges.py",
        ],
    ),
    # The loop's own tests in short decodes, TorchScript variants (the eager ones run the same
    # Python loop; only the compiled step, filter and draw differ, and those the TorchScript
    # fallback test compares), plus the checks against upstream and the fixed-shape step that
    # cost a second or two. Left out: the sampling-vs-upstream runs with ChatTTS's settings
    # (long decodes; they pin sampling.py, whose group runs its own tests).
    "decode.loop": (
        [
            "app/decode/loop.py",
            "app/decode/prefill.py",
            "app/decode/row_sampling.py",
            "app/decode/pass_output.py",
            "app/decode/step_script.py",
        ],
        [
            "tests/engine/test_decode_loop_rows.py",
            "tests/engine/test_decode_loop_memory_and_errors.py",
            "tests/engine/test_decode_loop_step_cache.py",
            "tests/engine/test_batch_joins.py::test_sentences_joining_a_running_batch_decode_as_if_alone",
            "tests/engine/test_decode_loop.py::test_each_sentence_stops_at_its_own_end_token",
            "tests/engine/test_decode_loop.py::test_audio_pass_matches_upstream_logits_tokens_and_hiddens[jit-batch]",
            "tests/engine/test_decode_loop.py::test_refine_pass_matches_upstream[jit]",
            "tests/engine/test_decode_loop.py::test_sampling_is_seeded_per_sentence[jit]",
            "tests/engine/test_decode_loop.py::test_when_torchscript_fails_the_same_loop_runs_eagerly",
            "tests/engine/test_sampling_vs_upstream.py::test_the_repetition_penalty_and_its_window_decide_the_tokens",
            "tests/engine/test_gpu_path.py::test_a_sentences_random_numbers_drawn_at_once_equal_one_draw_per_step",
            "tests/engine/test_gpu_path.py::test_checking_completion_every_few_steps_gives_the_same_sentences",
            "tests/engine/test_gpu_path.py::test_kept_caches_are_bounded_and_freed",
            "tests/engine/test_gpu_path.py::test_memory_held_by_kept_caches_counts_as_free_when_choosing_a_batch",
            "tests/engine/test_gpu_path.py::test_a_new_cache_that_does_not_fit_frees_the_kept_ones_first",
            "tests/engine/test_gpu_path.py::test_numbers_that_overflow_stop_with_a_sentence_instead_of_silence",
            "tests/engine/test_gpu_path.py::test_graphs_are_captured_per_bucket_once_in_thread_local_mode_and_shared_across_requests",
            "tests/engine/test_gpu_path.py::test_out_of_memory_during_capture_reaches_the_batch_halving",
            "tests/engine/test_gpu_path.py::test_warm_up_captures_the_graphs_of_the_shapes_requests_will_use",
            "-k",
            "not eager or eagerly",
        ],
    ),
    "decode.vocoder_stream": (
        ["app/decode/vocoder_stream.py"],
        [
            "tests/engine/test_vocoder_stream_pieces.py",
            "tests/engine/test_streaming_and_memory.py",
            "-k",
            "(stream or receptive or no_tokens) and not upstream",
        ],
    ),
    # tests/engine/test_download_cancel.py is left out: its threads wait for a download that a
    # crashing mutant never starts, so each such mutant would run into its time-out.
    "model.download_store": (
        [
            "app/model/download.py",
            "app/model/download_failures.py",
            "app/model/download_progress.py",
            "app/model/store.py",
        ],
        [
            "tests/engine/test_model_download.py",
            "tests/engine/test_model_store.py",
            "tests/engine/test_download_hostile.py",
            "tests/engine/test_download_messages.py",
            "tests/engine/test_model_files_hostile.py",
            "tests/engine/test_download_protocol_edges.py",
            "tests/engine/test_model_verify_cache.py",
            "tests/engine/test_download_waits_and_reports.py",
            "-k",
            "not any_description_or_cache",
        ],
    ),
    "text.normalize_split": (
        [
            "app/text/normalize/zh.py",
            "app/text/normalize/en.py",
            "app/text/normalize/pipeline.py",
            "app/text/normalize/render.py",
            "app/text/normalize/roman.py",
            "app/text/prepare.py",
        ],
        [
            "tests/engine/test_normalize.py",
            "tests/engine/test_text.py",
            "tests/engine/test_text_pipeline.py",
            "tests/engine/test_numbers_zh.py",
            "tests/engine/test_numbers_en.py",
            "tests/engine/test_text_split_edges.py",
            "tests/engine/test_text_file_reading.py",
            "tests/engine/test_number_language_context.py",
            "tests/engine/test_spoken_forms_edges.py",
            "tests/engine/test_text_cut_positions.py",
            "-k",
            f"not ({_PROPERTY_TESTS})",
        ],
    ),
    # The checks that decide whether and where ChatTTS runs (the device recommendation, a model
    # to load, room for it); the Windows-setting checks (PATH, TDR, long paths, WSL, VC runtime)
    # are one comparison each and are left to their scenario tests.
    "doctor.checks": (
        [
            f"app/doctor/checks/{name}.py"
            for name in (
                "driver_cuda",
                "gpu_arch",
                "cuda_kernel",
                "torch_build",
                "vram",
                "disk_space",
                "model_files",
            )
        ],
        [
            "tests/doctor/test_scenarios.py",
            "tests/doctor/test_runner.py",
            "tests/doctor/test_check_thresholds.py",
            "-k",
            "not hanging and not docs_show",
        ],
    ),
}

# Workers per group (two cores here). The download and store tests mostly wait (sockets, a silent
# server's time-out, fsync), so two workers left the cores 60 % idle; four keep them busy.
CHILDREN = {"model.download_store": 4}
