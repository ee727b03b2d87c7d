"""The scope rules (crawler/scope/rules.py), tested directly: SURT as Heritrix writes it,
prefixes deduced from plain URLs as Heritrix deduces them, decisions, malformed rules."""

from __future__ import annotations

import pytest

from crawler.scope.rules import (
    Scope,
    ScopeFileError,
    ScopeRuleError,
    load_scope,
    parse_rule,
    parse_scope,
    surt,
    surt_prefix,
)


@pytest.mark.parametrize(("url", "expected"), [
    ("http://www.example.org/docs/a.html", "http://(org,example,www,)/docs/a.html"),
    # lower-cased (path too), https compared as http, default port dropped, others kept
    ("https://Example.ORG:443/Docs/X?b=1", "http://(org,example,)/docs/x?b=1"),
    ("http://example.org:8080/", "http://(org,example,:8080)/"),
    # dotted-quad addresses are not reversed; userinfo after the port, as in Heritrix
    ("http://127.0.0.1:8899/a", "http://(127.0.0.1:8899)/a"),
    ("http://user:pw@example.org/", "http://(org,example,@user:pw)/"),
    ("http://example.org", "http://(org,example,)/"),
])
def test_surt_form(url: str, expected: str) -> None:
    assert surt(url) == expected


@pytest.mark.parametrize(("text", "expected"), [
    # formal SURT prefixes are kept as written (lower-cased; https as http)
    ("http://(org,example,)/docs/", "http://(org,example,)/docs/"),
    ("HTTPS://(org,Example,)", "http://(org,example,)"),
    ("http://(org,example,", "http://(org,example,"),
    # Heritrix's deduction from a seed-like URL (SurtPrefixSet.prefixFromPlainForceHttp)
    ("example.org", "http://(org,example,"),  # no slash: every sub-domain
    ("example.org/", "http://(org,example,)/"),  # this host only
    ("http://www.example.org/docs/index.html", "http://(org,example,www,)/docs/"),
    ("example.org/docs", "http://(org,example,)/"),  # last segment dropped: end it with /
    ("https://example.org/docs/", "http://(org,example,)/docs/"),
])
def test_surt_prefix(text: str, expected: str) -> None:
    assert surt_prefix(text) == expected


def test_decisions_include_exclude_regex() -> None:
    scope = parse_scope([
        "# docs of www.example.org, and all of example.net",
        "+http://(org,example,www,)/docs/",
        "+example.net",
        "-http://(org,example,www,)/docs/private/",
        "-re:[?&]print=1",
        "",
    ], "scope.txt")
    assert scope.allows("http://www.example.org/docs/a.html")
    assert scope.allows("https://www.example.org/docs/")  # https compared as http
    assert scope.allows("http://example.net/")
    assert scope.allows("http://blog.example.net/x")
    assert scope.refusal("http://www.example.org/docs/private/p.html") == (
        "excluded by -http://(org,example,www,)/docs/private/ (scope.txt line 4)")
    assert scope.refusal("http://www.example.org/docs/a.html?print=1") == (
        "excluded by -re:[?&]print=1 (scope.txt line 5)")
    assert scope.refusal("http://www.example.org/about") == (
        "matches no include rule of scope.txt")
    assert not scope.allows("http://example.org/docs/a.html")  # not www: another host
    assert not scope.allows("http://example.network/")  # not a sub-domain of example.net


def test_excludes_only_and_live_add() -> None:
    scope = Scope([], "")
    assert not scope and scope.allows("http://anything.test/")
    assert scope.add(parse_rule("-re:/b/", "control action 3"))
    assert not scope.add(parse_rule("-re:/b/"))  # once
    assert scope.allows("http://h.test/a/1")
    assert scope.refusal("http://h.test/b/1") == "excluded by -re:/b/ (control action 3)"
    # an exclude wins over an include, whatever the order
    both = parse_scope(["-re:/x", "+re:/x"], "f")
    assert not both.allows("http://h.test/x")


@pytest.mark.parametrize(("line", "message"), [
    ("http://(org,example,)/", "a rule starts with + (include) or - (exclude)"),
    ("+", "nothing after +"),
    ("-re:", "empty regular expression"),
    ("+re:(docs", "bad regular expression: missing ), unterminated subpattern at position 0"),
    ("+http://(org,exa)mple)/",
     "not a SURT prefix (expected e.g. http://(org,example,)/path/)"),
    ("+ftp://example.org/", "not an http(s) URL or a host name"),
    ("-example.org:port/",
     "not a URL or host (Port could not be cast to integer value as 'port')"),
])
def test_malformed_rules(line: str, message: str) -> None:
    with pytest.raises(ScopeRuleError) as error:
        parse_rule(line)
    assert str(error.value) == f"{line!r}: {message}"


def test_scope_file_errors_name_file_and_line(tmp_path) -> None:
    path = tmp_path / "scope.txt"
    path.write_text("# mine\n+example.org/\n\n+re:[docs\n")
    with pytest.raises(ScopeFileError) as error:
        load_scope(str(path))
    assert str(error.value) == (
        f"scope file {path} line 4: '+re:[docs': bad regular expression: unterminated "
        "character set at position 0")
    with pytest.raises(ScopeFileError, match="does not exist"):
        load_scope(str(tmp_path / "missing.txt"))
    path.write_text("# only comments\n")
    with pytest.raises(ScopeFileError, match="has no rule"):
        load_scope(str(path))
