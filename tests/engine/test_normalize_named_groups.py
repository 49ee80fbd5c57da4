"""Our rules' spans are read by the names of their groups (normalize/render.py), never by a
group's number: a number shifts whenever a pattern gains a group, a name does not."""

from app.text.normalize.kinds import Kind
from app.text.normalize.rules import RULES


def test_every_rule_has_a_pattern():
    assert [kind for kind, _ in RULES] == list(Kind)


def test_every_capturing_group_of_a_rule_has_a_name():
    unnamed = [
        f"{kind.value}: {pattern.groups - len(pattern.groupindex)} of {pattern.groups} unnamed"
        for kind, pattern in RULES
        if pattern.groups != len(pattern.groupindex)
    ]
    assert unnamed == []
