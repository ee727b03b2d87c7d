import logging

import pytest

from crawler.seeds import SeedError, load_seeds
from crawler.urls import canonical_url, registered_domain


def test_seeds_file_comments_blanks_and_invalid_lines(tmp_path, caplog):
    path = tmp_path / "seeds.txt"
    path.write_text("# comment\n\nhttp://A.test/x#f\nnot a url\nftp://files.test/\n"
                    "https://b.test/?b=1&a=2\nhttp://a.test/x\n")
    with caplog.at_level(logging.WARNING):
        urls = load_seeds(str(path))
    assert urls == ["http://a.test/x", "https://b.test/?a=2&b=1"]
    warnings = [r.getMessage() for r in caplog.records]
    assert warnings == [
        f"ignoring invalid seed URL at {path}:4: 'not a url'",
        f"ignoring invalid seed URL at {path}:5: 'ftp://files.test/'",
    ]


def test_seed_urls_argument_and_combination(tmp_path):
    path = tmp_path / "s.txt"
    path.write_text("http://a.test/\n")
    assert load_seeds(None, "http://b.test/, http://c.test/") == ["http://b.test/", "http://c.test/"]
    assert load_seeds(str(path), "http://a.test/,http://b.test/") == [
        "http://a.test/", "http://b.test/"]


def test_seed_errors(tmp_path):
    with pytest.raises(SeedError, match="does not exist"):
        load_seeds(str(tmp_path / "missing.txt"))
    empty = tmp_path / "empty.txt"
    empty.write_text("# nothing\n\njavascript:alert(1)\n")
    with pytest.raises(SeedError, match="no valid seed URL"):
        load_seeds(str(empty))
    with pytest.raises(SeedError, match="no seeds given"):
        load_seeds(None, None)


def test_packaged_seeds():
    urls = load_seeds("package:sandbox_seeds.txt")
    assert urls and all(u.startswith("http://") for u in urls)


def test_canonical_url():
    assert canonical_url("HTTP://WWW.A.test/a b/?z=1&a=2#frag") == "http://www.a.test/a%20b/?a=2&z=1"
    for bad in ("mailto:x@y", "javascript:void(0)", "data:,x", "tel:1", "http:///x", "/rel"):
        assert canonical_url(bad) is None


def test_registered_domain():
    assert registered_domain("news.bbc.co.uk") == "bbc.co.uk"
    assert registered_domain("www.alpha.test") == "alpha.test"
    assert registered_domain("127.0.0.1") == "127.0.0.1"
