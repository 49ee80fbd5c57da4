"""The Chinese interface addresses the user one way: 你 (the catalogs mixed in 您, so one
screen said 你的电脑 and the next 您的资料库)."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CATALOGS = [
    ROOT / "resources" / "translations" / "chattts_studio_zh_CN.ts",
    ROOT / "resources" / "locale" / "zh_CN" / "LC_MESSAGES" / "chattts_studio.po",
]


def test_chinese_catalogs_say_ni_never_nin():
    for catalog in CATALOGS:
        text = catalog.read_text(encoding="utf-8")
        assert "你" in text, catalog.name
        lines = [line.strip() for line in text.splitlines() if "您" in line]
        assert lines == [], (catalog.name, lines)
