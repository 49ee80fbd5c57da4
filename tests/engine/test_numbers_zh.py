"""Chinese numbers as a person reads them aloud.

Codes (phone, room, bus, train and flight numbers, long account numbers) are read digit by
digit, and 1 in a code is 幺, as on the phone and in a hotel lobby; a year is read digit by
digit with 一 (一九九零年). Quantities, approximations and percentages are read as numbers.
"""

import cn2an
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from app.text.normalize import normalize
from app.text.normalize.zh_numerals import an2cn
from app.text.prepare import prepare_text, split_text

CASES = [
    # Phone numbers: mobile, landline with area code, with a country code.
    ("电话13812345678", "电话幺三八幺二三四五六七八"),
    ("拨打010-12345678", "拨打零幺零，幺二三四五六七八"),
    ("热线400-820-8820", "热线四零零，八二零，八八二零"),
    ("打+86 138 1234 5678", "打加八六，幺三八，幺二三四，五六七八"),
    # Rooms, buses, trains, flights, order numbers.
    ("住302房间", "住三零二房间"),
    ("在1201室", "在幺二零幺室"),
    ("坐302路公交", "坐三零二路公交"),
    ("G1234次列车", "G幺二三四次列车"),
    ("CA1234航班", "CA幺二三四航班"),
    ("订单号20240305123", "订单号二零二四零三零五幺二三"),
    ("3号楼", "三号楼"),  # a small building number is just a number
    # Approximations and large numbers.
    ("约1.2万人", "约一点二万人"),
    ("2.5亿元", "二点五亿元"),
    ("3万", "三万"),
    ("¥1.2万", "一点二万元"),
    ("支付USD 100", "支付一百美元"),
    ("支付CNY1.25", "支付一点二五人民币"),  # a currency code is its name (WeTextProcessing's cases)
    ("换了RMB100", "换了一百人民币"),  # RMB is a currency, not a model number
    # An IP address: each part digit by digit.
    ("地址127.0.0.1", "地址一二七点零点零点一"),
    ("人口14000000", "人口一千四百万"),  # round: a quantity, not a code
    ("共100010人", "共十万零一十人"),
    # Percentages.
    ("增长3.5%", "增长百分之三点五"),
    ("占100%", "占百分之一百"),
    ("下降0.5%", "下降百分之零点五"),
    # Dates and years.
    ("2024年3月5日", "二零二四年三月五日"),
    ("3月5日", "三月五日"),
    ("2024/3/5", "二零二四年三月五日"),
    ("日期11/17/05", "日期零五年十一月十七日"),  # a two-digit year, month first
    ("休息了2 wks", "休息了两周"),  # an English unit inside Chinese is said in Chinese
    ("跑了5 mins", "跑了五分钟"),
    ("98年3月", "九八年三月"),  # a two-digit year followed by its month
    ("过去10年", "过去十年"),  # ten years, not the year '10
    ("90年代", "九十年代"),
    ("500年前", "五百年前"),
]


@pytest.mark.parametrize("text, spoken", CASES)
def test_chinese_is_read_as_a_person_reads_it(text, spoken):
    assert normalize(text, "zh") == spoken


BIG = [
    ("6700004000", "六十七亿零四千"),  # one 零 for the skipped 万 group (cn2an drops it)
    ("1000000000000", "一万亿"),
    ("259730706812997", "二百五十九万七千三百零七亿零六百八十一万二千九百九十七"),
    ("100000001", "一亿零一"),
    ("10", "十"),
    ("110", "一百一十"),
]


@pytest.mark.parametrize("digits, spoken", BIG)
def test_large_numbers_read_with_wan_and_yi(digits, spoken):
    assert an2cn(digits) == spoken


@settings(max_examples=400, deadline=None)
@given(
    st.integers(min_value=0, max_value=10**16 - 1),
    st.sampled_from(["", ".5", ".05", ".50"]),
    st.booleans(),
)
def test_numbers_are_written_as_cn2an_writes_them(n, fraction, negative):
    # cn2an leaves out the 零 for an empty 万 group between 亿 and the rest (see BIG).
    assume(not (n >= 10**8 and n // 10**4 % 10**4 == 0 and n % 10**4))
    text = ("-" if negative else "") + str(n) + fraction
    assert an2cn(text) == cn2an.an2cn(text, "low")


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.decimals(min_value=0, max_value=10**5, places=2, allow_nan=False).map(str),
            st.sampled_from(["价格是", "大约", "万人", "。", "，", "元", "13812345678", "今天"]),
        ),
        min_size=1,
        max_size=30,
    ),
    st.integers(12, 40),
)
def test_chinese_text_is_never_cut_inside_a_number(pieces, limit):
    text = "".join(p + ("个" if p[:1].isdigit() else "") for p in pieces)  # numbers stay apart
    for number in (p for p in pieces if p[:1].isdigit()):
        assert any(number in s for s in split_text(text, limit=limit))


def test_prepared_chinese_keeps_every_number_spoken():
    prepared = prepare_text("请拨打13812345678。约1.2万人住在302房间，增长3.5%。")
    assert prepared.segments == [
        "请拨打幺三八幺二三四五六七八。",
        "约一点二万人住在三零二房间，增长百分之三点五。",
    ]
