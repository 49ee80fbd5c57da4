"""Why each surviving mutant of bench/mutation.sh is equivalent or harmless, by file and line of
the mutated revision (bench/mutation/mutation_survivors.py prints each survivor with its reason, and
UNEXPLAINED for one that has none: a new survivor, or a line that moved).

A key is (file, line) or (file, line, text the mutant contains) where one line has mutants with
different reasons. Kinds: EQUIVALENT (no input can tell), CPU-ONLY (equivalent on a CPU, the GPU
path is checked by bench/gpu_check.sh on a card), HARMLESS (a changed detail nobody depends on),
OUTSIDE (killed by a test outside the group's selection, named), KILLED SINCE / FIXED SINCE (a
test or a fix after the run, checked by hand against the mutant), REAL (a gap, said as such).
"""

LOOP = "app/decode/loop.py"
SAMPLING = "app/decode/sampling.py"
VOCODER = "app/decode/vocoder_stream.py"
DOWNLOAD = "app/model/download.py"
STORE = "app/model/store.py"
PIPELINE = "app/text/normalize/pipeline.py"
EN = "app/text/normalize/en.py"
ZH = "app/text/normalize/zh.py"
PREPARE = "app/text/prepare.py"

_DEVICE = (
    "CPU-ONLY: `device=self.device` dropped or None, `.to(None)`: the CPU is torch's default device"
)
_GPU = (
    "CPU-ONLY: on a CPU `on_gpu` is False and the mode is never 'graph'; these change only what a card "
    "runs (fixed-shape steps, CUDA graphs, syncing every 8 steps, inexact batches)"
)
_KILLED_INT8 = (
    "KILLED SINCE: tests/engine/test_decode_loop_step_cache.py::test_int8_is_calibrated_on_the_models_"
    "own_embeddings_and_quantized (added after the run; checked by hand against the calibration=None "
    "and precision=None mutants: it fails)"
)
_DIM = "EQUIVALENT: every tensor here is 2-D (rows, vocabulary), so axis +1 is axis -1"
_INF = "EQUIVALENT: Python parses float('-INF') as minus infinity too"

REASONS: dict[tuple, str] = {
    # decode.loop
    (
        LOOP,
        56,
    ): "CPU-ONLY: `prec.choose(precision, None)`: a device type other than 'cuda' gets the CPU rules",
    (LOOP, 69): _DEVICE,
    (LOOP, 139): _DEVICE,
    (LOOP, 140): _DEVICE,
    (LOOP, 292): _DEVICE,
    (LOOP, 293): _DEVICE,
    (LOOP, 297): _DEVICE,
    (LOOP, 298): _DEVICE,
    (LOOP, 306): _DEVICE,
    (LOOP, 309): _DEVICE,
    (LOOP, 326): _DEVICE,
    (LOOP, 354): _DEVICE,
    (LOOP, 117, ".to(None)"): _DEVICE,
    (LOOP, 352): "CPU-ONLY: `Generator(device=None)` is a CPU generator, as asked",
    (LOOP, 386): (
        "CPU-ONLY: the graph inputs' dtype/device None: fp32 and the CPU are the defaults, and "
        "graphs run only on a card"
    ),
    (
        LOOP,
        402,
    ): "CPU-ONLY: `x.to(None)` into the graph inputs is the identity (graphs run only on a card)",
    (LOOP, 396): (
        "OUTSIDE: the fixed-shape bucket (at - 1, at + 2): tests/engine/test_gpu_path.py::"
        "test_fixed_shape_steps_attend_to_the_smallest_bucket_and_match_the_growing_step (2-4 s, left "
        "out of the selection)"
    ),
    (LOOP, 91): _GPU,
    (LOOP, 96): _GPU,
    (LOOP, 98): _GPU,
    (LOOP, 106): _GPU,
    (LOOP, 109): (
        "OUTSIDE: `exact_across_batches` None/on_gpu makes a CPU out-of-memory retry treat a "
        "sentence as not resumable: tests/engine/test_gpu_memory.py::test_an_inexact_retry_cuts_a_partly_"
        "played_sentence_with_a_warning (77 s under load, outside the selection)"
    ),
    (LOOP, 71): (
        "OUTSIDE: `emb_text = None`: the text pass; mutmut runs `__init__` mutants only against the test "
        "that first built the module-scoped loop; test_decode_loop.py::test_refine_pass_matches_upstream "
        "fails on it"
    ),
    (LOOP, 74): "OUTSIDE: `head_text = None`: as for emb_text (the refine pass tests)",
    (
        LOOP,
        78,
    ): "EQUIVALENT: `options.int8_recipe` is None unless a benchmark sets it, so the key gets None either way",
    (LOOP, 85, "self.precision, calibration="): (
        "EQUIVALENT in output (memory only): `in_place` dropped: "
        "converted on a copy, a higher peak memory, the same numbers"
    ),
    (LOOP, 85, "in_place"): (
        "EQUIVALENT in output (memory only): in place or on a copy changes only the peak memory "
        "of a reduced precision's conversion"
    ),
    (LOOP, 85, "eval(), None"): _KILLED_INT8,
    (LOOP, 86, "calibration=None"): _KILLED_INT8,
    (
        LOOP,
        86,
        "recipe=None",
    ): "EQUIVALENT: `options.int8_recipe` is None by default, and the conversion reads None as RECIPE",
    (LOOP, 86, "calibration=self._calibration, )"): (
        "EQUIVALENT: the recipe argument dropped is None, which the "
        "conversion reads as RECIPE, as for `options.int8_recipe` None"
    ),
    (LOOP, 86, "recipe=options.int8_recipe)"): _KILLED_INT8,
    (LOOP, 85): _KILLED_INT8,
    (LOOP, 82): "EQUIVALENT: getattr default None instead of False: both falsy",
    (LOOP, 83): (
        "HARMLESS: the text of an internal RuntimeError (a program error, never shown to a user; "
        "the test checks that it is raised)"
    ),
    (LOOP, 117): (
        "KILLED SINCE: `_calibration` had no test; test_int8_is_calibrated_on_the_models_own_embeddings_"
        "and_quantized compares what it gives with calibration_prompt of the loop's embeddings"
    ),
    (LOOP, 328): (
        "EQUIVALENT (memory only): filtering into a fresh tensor or into the logits themselves: every "
        "row is written once from its own part"
    ),
    (LOOP, 310): "EQUIVALENT (time only): random numbers drawn for a greedy pass are never read",
    (LOOP, 291): (
        "EQUIVALENT: cumsum over axis +1 of a 2-D mask is axis -1; a padding position's value (1 or 2) "
        "is masked out of every query"
    ),
    (LOOP, 147): "EQUIVALENT: `element_size()` does not depend on the element count",
    # decode.sampling
    (SAMPLING, 29): _DIM,
    (SAMPLING, 34): _DIM,
    (SAMPLING, 44): _DIM,
    (SAMPLING, 45): _DIM,
    (SAMPLING, 47): _DIM,
    (SAMPLING, 51): _DIM,
    (SAMPLING, 32): _INF,
    (SAMPLING, 36): _INF,
    (SAMPLING, 38): _INF,
    (SAMPLING, 23): (
        "EQUIVALENT: with penalty 1.0, alpha = 1 ** freq = 1; with an empty history freq = 0 and "
        "alpha = 1: the identity either way"
    ),
    (SAMPLING, 26): "EQUIVALENT: at 0, 0 * alpha == 0 / alpha",
    (SAMPLING, 27): (
        "EQUIVALENT: with top_p >= 1 the filter removes cumulative <= 1 - p <= 0, i.e. nothing "
        "(every kept probability is > 0)"
    ),
    (SAMPLING, 28): "EQUIVALENT: ascending is torch.sort's default",
    (SAMPLING, 46): (
        "EQUIVALENT: cdf[-1] is the sum of a softmax, 1 to a few ulps; a pick moves only when u "
        "falls within those ulps of a CDF step"
    ),
    # decode.vocoder_stream
    (VOCODER, "zeros"): (
        "HARMLESS: an empty piece of float64 instead of float32 (no samples; every writer converts)"
    ),
    (VOCODER, "linspace"): (
        "HARMLESS: a float64 ramp on a float32 piece: the same samples to float32 precision"
    ),
    # doctor.checks
    (
        "app/doctor/checks/disk_space.py",
        11,
    ): "HARMLESS: one part in a billion of a one-decimal GB figure",
    (
        "app/doctor/checks/driver_cuda.py",
        23,
    ): "EQUIVALENT: torch.version.cuda has two parts ('12.8')",
    (
        "app/doctor/checks/driver_cuda.py",
        35,
    ): "EQUIVALENT: torch.version.cuda has two parts ('12.8')",
    ("app/doctor/checks/gpu_arch.py", 12): "EQUIVALENT: arch names ('sm_86') have one underscore",
    ("app/doctor/checks/vram.py", 11): (
        "EQUIVALENT: a GPU with no memory reading ranks below any with one, 0 or 1"
    ),
    # model.download_store
    (DOWNLOAD, 284): "HARMLESS: the text of an internal exception that is caught and only logged",
    (
        DOWNLOAD,
        286,
    ): "EQUIVALENT: the partial file exists there (it was just written), so missing_ok is never used",
    (DOWNLOAD, 249): "EQUIVALENT: 'XXXX' is not digits either, so the same branch is taken",
    (
        DOWNLOAD,
        251,
    ): "EQUIVALENT: `_fetch` sets have = 0 for any answer but 206 before `_limit` runs",
    (
        DOWNLOAD,
        304,
    ): "HARMLESS: the quarantined copy's time stamp (a name for a human; the test counts the copies)",
    (
        DOWNLOAD,
        207,
    ): "EQUIVALENT: the loop runs at least once and sets `last` on every path that does not return",
    (DOWNLOAD, 345): (
        "HARMLESS: the report after asking for the files' sizes: the next forced report (the first "
        "file's VERIFYING) follows within the same second"
    ),
    (DOWNLOAD, 370): (
        "HARMLESS: the report after a file is verified: the next file's VERIFYING report, or the final "
        "one, carries the same state an instant later"
    ),
    (
        DOWNLOAD,
        350,
    ): "EQUIVALENT: the second round raises before a third could start (`if round_ == 1`)",
    (DOWNLOAD, 357): (
        "EQUIVALENT: files are fetched in MODEL_FILES order, whose first file makes asset/ before "
        "asset/gpt/ is needed, and the model folder exists"
    ),
    (STORE, 39): "EQUIVALENT: sha256_map.json is ASCII; codec names ignore case",
    (
        STORE,
        45,
    ): "EQUIVALENT: the block size of reading a file to hash it (any size, the same digest)",
    (STORE, 178): "EQUIVALENT: present=None is falsy like False",
    # text.normalize_split
    (PREPARE, 91): "EQUIVALENT: a start of None is 0",
    (
        PREPARE,
        92,
        "!= -2",
    ): "EQUIVALENT: with no '[' opening is -1 and `rfind(']') < -1` is never true",
    (PREPARE, 92, "None, i"): "EQUIVALENT: a start of None is 0",
    (
        PREPARE,
        92,
        '"]", 1, i',
    ): "EQUIVALENT: a ']' at 0 precedes every '[', so `< opening` holds either way",
    (PREPARE, 92, "<= opening"): "EQUIVALENT: equal only when both are -1, refused just before",
    (PREPARE, 92, 'rfind("]", i)'): "EQUIVALENT: both ask whether any ']' follows i",
    (
        PREPARE,
        99,
    ): "EQUIVALENT: `_safe_cut` runs only for parts longer than the limit, so the `min` is the limit",
    (PREPARE, 105): (
        "EQUIVALENT: an 'X' beside a digit is an ASCII letter-digit pair, which the Latin-word rule "
        "already keeps together"
    ),
    (PREPARE, 30): "EQUIVALENT: codec lookup ignores case",
    (EN, 47): "EQUIVALENT: numbers hold no 'X'",
    (EN, 152): "EQUIVALENT: numbers hold no 'X'",
    (EN, 162): "EQUIVALENT: numbers hold no 'X'",
    (EN, 89): "EQUIVALENT: month names hold no 'X'",
    (EN, 129): (
        "EQUIVALENT: an unknown currency's sub-unit plural is never read (such a currency returns early "
        "when there is a fraction)"
    ),
    (EN, 135): (
        "EQUIVALENT: `if frac or True`: '' pads to '00', 0 cents; `frac[:3]`: more than two decimals "
        "returned earlier"
    ),
    (EN, 64): "EQUIVALENT: a two-digit decade read as a year is the same words",
    (ZH, 41): "EQUIVALENT: only 'ends with 第' is asked of `preceding`; 'XXXX' does not",
    (ZH, 88): "EQUIVALENT: phone numbers hold no 'X'",
    (PIPELINE, 69): "HARMLESS: the 12-character context window one wider (a judgement, not a rule)",
    (PIPELINE, 70): "HARMLESS: the 12-character context window one wider (a judgement, not a rule)",
    (PIPELINE, 92): "HARMLESS: the 12-character window for the word before a year one wider",
    (PIPELINE, 93): "EQUIVALENT: 'XXXX' is not a year word either",
    (PIPELINE, 71): (
        "EQUIVALENT: `before[-1:]` of an empty string is '' anyway; a non-empty stand-in is only "
        "asked whether it is Chinese ('XXXX' is not); `after[:2]`: `match` reads the first character"
    ),
    (PIPELINE, 74): (
        "EQUIVALENT: the second-nearest letter, or none, before the number: when the nearest "
        "character is not a letter the outward scan (next lines) meets the same letter first; "
        "`after[:2]`: `match` reads the first character"
    ),
    (PIPELINE, 82): (
        "EQUIVALENT: the scan's English answer spelled otherwise: anything but 'zh' renders in "
        "English, and no spacing rule is reached through this return without a letter beside"
    ),
    (
        PIPELINE,
        102,
    ): "EQUIVALENT: the date pattern's month and day groups match together (g[1] iff g[2])",
    (PIPELINE, 111): "EQUIVALENT: month names hold no 'X'",
    (PIPELINE, 114): "EQUIVALENT: the 'h am' alternative sets both groups 4 and 5",
    (PIPELINE, 119): (
        "FIXED SINCE: the mutants showed an am/pm time in Chinese text was declined and came out "
        "as '三:thirty pm'; it is now read 下午三点三十分 (zh.time's `half`), pinned by "
        "test_normalize.py::test_am_and_pm_times_are_read_in_the_language_around_them, which fails "
        "on the old code and on `mi or 'XX0XX'` (checked by hand)"
    ),
    (
        PIPELINE,
        126,
    ): "EQUIVALENT: the prefix is only asked whether it is there ('v' or the digits: both truthy)",
    (PIPELINE, 129): "EQUIVALENT: the code-first currency alternative sets groups 6 and 7 together",
    (PIPELINE, 131): "EQUIVALENT: the symbol-first alternative sets groups 0 and 1 together",
    (PIPELINE, 134): (
        "EQUIVALENT: a Chinese scale (万, 亿) is inside the span, which makes the span Chinese, so "
        "this English branch never sees one (test_an_amount_with_a_chinese_scale_is_read_in_chinese_"
        "even_in_english_text)"
    ),
    (PIPELINE, 137): "EQUIVALENT: every symbol the currency pattern matches is in zh.CURRENCY",
    (
        PIPELINE,
        149,
    ): "EQUIVALENT: `r` is the zh module when lang is 'zh', so r.ordinal is zh.ordinal",
    (PIPELINE, 176): "EQUIVALENT: at the end of the text no rule matches, and the loop breaks",
    (PIPELINE, 182): "EQUIVALENT: no rule's pattern can match an empty string",
    (PIPELINE, 181): (
        "EQUIVALENT: a declined span always holds digits, which the number rule takes first; "
        "the next search then starts past it and finds the rule's next match anyway"
    ),
    (PIPELINE, 196): (
        "KILLED SINCE: test_normalize.py 'it is 3x faster' (added after the run, checked against "
        "this mutant by hand: it fails)"
    ),
    (PIPELINE, 199, "XX XX"): (
        "EQUIVALENT: with the default glue ' ' the glue step replaces spaces with spaces and "
        "moves one space from the text into the spoken words"
    ),
    (PIPELINE, 202, "a-za-z"): (
        "KILLED SINCE: test_normalize.py 'we bought 3 Apples' with a non-breaking glue "
        "(added after the run, checked against this mutant by hand: it fails)"
    ),
    (
        PIPELINE,
        202,
        "end + 3",
    ): "EQUIVALENT: `match` anchors at the start, so a longer slice changes nothing",
    (PIPELINE, 201): (
        "EQUIVALENT: the spoken words hold no other white space to strip, and no capital X at "
        "their ends"
    ),
}
