"""Spoken forms, asserted exactly, in Chinese, English and mixed text."""

import pytest

from app.text.normalize import language_of, normalize

ZH = [
    ("618购物节", "六百一十八购物节"),
    ("第1名", "第一名"),
    ("圆周率是3.14", "圆周率是三点一四"),
    ("气温-5℃", "气温零下五摄氏度"),
    ("体温36.5°C", "体温三十六点五摄氏度"),
    ("涨了50%", "涨了百分之五十"),
    ("降了-2%", "降了负百分之二"),
    ("价格¥99.5", "价格九十九点五元"),
    ("花了$20", "花了二十美元"),
    ("2024年5月1日", "二零二四年五月一日"),
    ("发布于2024-05-01", "发布于二零二四年五月一日"),
    ("14:30开会", "十四点三十分开会"),
    ("8:05出发", "八点零五分出发"),
    ("10:00整点", "十点整整点"),
    ("电话13812345678", "电话幺三八幺二三四五六七八"),
    ("买了3kg苹果", "买了三千克苹果"),
    ("时速10km/h", "时速十公里"),  # 时速 already says "per hour"
    ("限速10km/h", "限速每小时十公里"),  # a speed: per hour first (WeTextProcessing's reading)
    ("风速5m/s", "风速每秒五米"),
    ("内存16GB", "内存十六GB"),
    ("版本v2.1.3", "版本V二点一点三"),
    ("1999年", "一九九九年"),
    ("共1,234人", "共一千二百三十四人"),
    # Clock times keep their seconds; a clock reads 05 as 零五 and 2 o'clock as 两点.
    ("14:30:15开始", "十四点三十分十五秒开始"),
    ("08:05:09到达", "八点零五分零九秒到达"),
    ("10:00:05响铃", "十点零分零五秒响铃"),
    ("12:00:00午饭", "十二点整午饭"),
    ("2:30见", "两点三十分见"),
    ("02:00起床", "两点整起床"),
    ("22:10睡觉", "二十二点十分睡觉"),
    # A lone 2 counting something is 两; as an ordinal, a month, a grade or a digit it is 二.
    ("我有2个苹果", "我有两个苹果"),
    ("买了2本书", "买了两本书"),
    ("等了2天", "等了两天"),
    ("跑了2km", "跑了两公里"),
    ("花了¥2", "花了两元"),
    ("第2个", "第二个"),
    ("2月", "二月"),
    ("2年级", "二年级"),
    ("12个人", "十二个人"),
    ("22个人", "二十二个人"),
    ("2.5个", "二点五个"),
    ("2000人", "两千人"),
    ("20000元", "两万元"),
    ("200人", "两百人"),  # 两百, as it is said (WeTextProcessing reads it so)
    # Fahrenheit is named; a unit Chinese has no word for is kept as written.
    ("气温98.6°F", "气温九十八点六华氏度"),
    ("低温-40℉", "低温零下四十华氏度"),
    ("时速60mph", "时速六十mph"),
    # Phone numbers digit by digit (1 is 幺), + is 加, each dash or space a pause.
    ("电话+86 138-1234-5678", "电话加八六，幺三八，幺二三四，五六七八"),
    # A version without v is read without V.
    ("版本2.1.3", "版本二点一点三"),
]

EN = [
    ("I have 3 apples", "I have three apples"),
    ("pi is 3.14", "pi is three point one four"),
    ("It is -7 outside", "It is minus seven outside"),
    ("1,234 people", "one thousand two hundred thirty four people"),
    ("room 101", "room one zero one"),  # a room number is read digit by digit (issue 38)
    ("at 9:05 today", "at nine oh five today"),
    ("at 10:00 sharp", "at ten o'clock sharp"),
    ("on 2024-05-01 we", "on May first, twenty twenty four we"),
    ("costs $5.99", "costs five dollars and ninety nine cents"),
    ("costs $1", "costs one dollar"),
    ("€10 only", "ten euros only"),
    ("weighs 5kg", "weighs five kilograms"),
    ("runs 1 km", "runs one kilometer"),
    ("it is 25°C", "it is twenty five degrees Celsius"),
    ("grew 50%", "grew fifty percent"),
    ("the 21st century", "the twenty first century"),
    ("in 1999 we", "in nineteen ninety nine we"),
    ("call (555) 123-4567", "call five five five, one two three, four five six seven"),
    ("version 1.2.3 is out", "version one point two point three is out"),
    ("ChatTTS v0.2 ships", "ChatTTS version zero point two ships"),
]

MIXED = [
    ("我有2个苹果 and 3 apples", "我有两个苹果 and three apples"),
    (
        "ChatTTS 在2024年发布 version 0.2.5",
        "ChatTTS 在二零二四年发布 version zero point two point five",
    ),
    ("下载 8GB 的 model", "下载 八GB 的 model"),
]


@pytest.mark.parametrize("text, spoken", ZH)
def test_chinese(text, spoken):
    assert normalize(text) == spoken


@pytest.mark.parametrize("text, spoken", EN)
def test_english(text, spoken):
    assert normalize(text) == spoken


@pytest.mark.parametrize("text, spoken", MIXED)
def test_mixed_text_picks_the_language_per_number(text, spoken):
    assert normalize(text) == spoken


def test_text_without_numbers_is_untouched():
    text = "你好，世界。Hello, world! [uv_break]"
    assert normalize(text) == text


def test_english_numbers_have_no_hyphens_for_chattts_to_turn_into_pauses():
    assert "-" not in normalize("It is 2024, 25°C, 21st, 99 and 1999 in 1999")


def test_no_digit_survives():
    text = "2024-05-01 14:30 ¥99 50% 3kg 13812345678 v1.2.3 -5℃ 1st 42 3.14"
    assert not any(c.isdigit() for c in normalize(text))


def test_language_detection():
    assert language_of("你好 world") == "zh"
    assert language_of("hello world 你") == "en"
    assert language_of("618") == "zh"


NBSP = "\u00a0"


@pytest.mark.parametrize(
    "text, glue, spoken",
    [
        # An English number written against a word is spoken apart from it, on either side.
        ("page12 of it", " ", "page twelve of it"),
        ("it is 12abc", " ", "it is twelve abc"),
        ("it is 3x faster", " ", "it is three times faster"),
        # With a glue (prepare_text passes a non-breaking space, where the splitter never cuts), the
        # words of one number and the word right after it are joined by it...
        ("we need 25 apples", NBSP, f"we need twenty{NBSP}five{NBSP}apples"),
        ("costs $5 today", NBSP, f"costs five{NBSP}dollars{NBSP}today"),
        ("we bought 3 Apples", NBSP, f"we bought three{NBSP}Apples"),
        # ...but a space the rule had to add before the number stays a plain one (a cut may fall
        # before a number, never inside it), and an expanded abbreviation is not glued to its name.
        ("page12 of it", NBSP, f"page twelve{NBSP}of it"),
        ("Dr. Smith has 2 cats", NBSP, f"Doctor Smith has two{NBSP}cats"),
        # Chinese words need no spaces: nothing is glued (the grammar drops a space before 个).
        ("他有 25 个", NBSP, "他有 二十五个"),
    ],
)
def test_spoken_numbers_are_spaced_from_and_glued_to_their_neighbours(text, glue, spoken):
    assert normalize(text, glue=glue) == spoken


def test_a_rule_that_declines_one_match_still_reads_the_next():
    # "60s" after "turned" is not a decade (the decade rule declines it); "1970s" further on is
    # one, and must still be read by the decade rule, not as a count of seconds.
    assert normalize("He turned 60s in 1970s style").endswith("nineteen seventies style")


def test_chinese_digit_by_digit_codes_stay_out_of_english_text():
    # 幺 is how Chinese reads a 1 in a code (CA1234 -> CA幺二三四); English text never gets it.
    assert normalize("航班 CA1234 起飞") == "航班 CA幺二三四 起飞"
    spoken = normalize("Flight CA1234 leaves at noon")
    assert "幺" not in spoken and "one" in spoken


def test_an_english_abbreviation_written_against_chinese_is_spaced_and_expanded_in_english():
    # Abbreviations are English whatever surrounds them; an English word is kept apart from the
    # Chinese before it, and the glue never joins it to its name.
    assert normalize("我见了Dr. Smith") == "我见了 Doctor Smith"
    assert normalize("他是Mr. Li的朋友", glue=NBSP) == "他是 Mister Li的朋友"


@pytest.mark.parametrize(
    "text, spoken",
    [
        # A clock time with am/pm in Chinese text is said the Chinese way: 上午/下午 before the time
        # (12 pm is noon, 中午; 12 am is midnight, 凌晨), never half English, half Chinese.
        ("会议在 3:30 pm 开始", "会议在 下午三点三十分 开始"),
        ("他 9am 到", "他 上午九点整 到"),
        ("我们 12:15 pm 吃饭", "我们 中午十二点十五分 吃饭"),
        ("夜里 12 am 睡觉", "夜里 凌晨十二点整 睡觉"),
        # In English text it stays English.
        ("It is 3:30 pm now", "It is three thirty p m now"),
    ],
)
def test_am_and_pm_times_are_read_in_the_language_around_them(text, spoken):
    assert normalize(text) == spoken


def test_an_amount_with_a_chinese_scale_is_read_in_chinese_even_in_english_text():
    # "$5万" is written the Chinese way (万 = ten thousand), so it is read the Chinese way, whole,
    # rather than as "five dollars" with the 万 left over.
    assert normalize("It costs $5万 in Shanghai") == "It costs 五万美元 in Shanghai"
