"""What a crawl process applies of its history (crawler/control/actions.py), directly."""

from __future__ import annotations

import pytest

from crawler.control.actions import Action, ControlError, make_argument, plan


def _a(id_: int, action: str, argument=None, applied: bool = False) -> Action:
    return Action(id_, action, argument, "cli", None, "x" if applied else None)


def test_first_read_takes_excludes_pending_seeds_and_a_standing_pause() -> None:
    history = [
        _a(1, "exclude", "-re:/b/"), _a(2, "add-seeds", ["http://a.test/"], applied=True),
        _a(3, "pause"), _a(4, "add-seeds", ["http://b.test/"]), _a(5, "stop"),
        _a(6, "pause"),
    ]
    assert [a.id for a in plan(history, first=True)] == [1, 4, 6]
    # a stop (or resume) after the last pause: the process runs
    assert [a.id for a in plan(history[:5], first=True)] == [1, 4]
    assert [a.id for a in plan(history, first=False)] == [1, 2, 3, 4, 5, 6]


def test_arguments(tmp_path) -> None:
    seeds = tmp_path / "seeds.txt"
    seeds.write_text("http://a.test/\n# c\nhttp://b.test/x\n")
    assert make_argument("add-seeds", str(seeds)) == ["http://a.test/", "http://b.test/x"]
    assert make_argument("add-seeds", "http://a.test/\nhttp://c.test/", seeds_text=True) == [
        "http://a.test/", "http://c.test/"]
    assert make_argument("exclude", "http://(test,a,)/b/") == "-http://(test,a,)/b/"
    assert make_argument("exclude", "-re:/b/") == "-re:/b/"
    assert make_argument("pause", None) is None
    for action, argument, message in [
        ("halt", None, "unknown action 'halt' (one of: add-seeds, exclude, pause, resume, stop)"),
        ("pause", "now", "pause takes no argument, got 'now'"),
        ("exclude", "+re:/b/", "exclude takes an exclude rule (- or no sign), not '+re:/b/'"),
        ("exclude", "-re:(", "bad rule: '-re:(': bad regular expression: missing ), "
         "unterminated subpattern at position 0"),
        ("add-seeds", str(tmp_path / "none.txt"),
         f"seeds file '{tmp_path / 'none.txt'}' does not exist"),
        ("add-seeds", None, "add-seeds needs a file of URLs (one a line)"),
    ]:
        with pytest.raises(ControlError) as error:
            make_argument(action, argument)
        assert str(error.value) == message
