"""GC_GEN0_THRESHOLD: the extension raises the collector's threshold for a crawl and puts
Python's back when the engine stops."""

from __future__ import annotations

import gc

import pytest
from scrapy import Spider, signals
from scrapy.exceptions import NotConfigured
from scrapy.utils.test import get_crawler

from crawler.extensions.gc_tuning import GarbageCollectorTuning, gen0_threshold


@pytest.fixture(autouse=True)
def python_gc_settings():
    before = gc.get_threshold()
    yield
    gc.set_threshold(*before)
    gc.unfreeze()


def test_the_threshold_holds_during_the_crawl_and_is_restored_when_the_engine_stops():
    gc.set_threshold(700, 10, 10)
    crawler = get_crawler(Spider, {"GC_GEN0_THRESHOLD": 12_345})
    ext = GarbageCollectorTuning.from_crawler(crawler)
    assert gc.get_threshold() == (12_345, 10, 10)
    assert gc.get_freeze_count() > 0  # what the set-up allocated is out of the way
    assert crawler.stats.get_value("gc/gen0_threshold") == 12_345
    crawler.signals.send_catch_log(signals.engine_stopped)
    assert gc.get_threshold() == (700, 10, 10)
    assert gc.get_freeze_count() == 0
    ext.restore()  # a second stop changes nothing
    assert gc.get_threshold() == (700, 10, 10)


@pytest.mark.parametrize("value", [0, "0", "None"])
def test_unset_leaves_python_alone(value):
    gc.set_threshold(700, 10, 10)
    crawler = get_crawler(Spider, {"GC_GEN0_THRESHOLD": value})
    with pytest.raises(NotConfigured):
        GarbageCollectorTuning.from_crawler(crawler)
    assert gc.get_threshold() == (700, 10, 10)


@pytest.mark.parametrize("value", [-1, "lots", 1.5j])
def test_a_bad_value_is_refused_with_its_name(value):
    with pytest.raises(ValueError, match="GC_GEN0_THRESHOLD"):
        gen0_threshold(value)


def test_the_project_enables_it_by_default():
    from crawler import defaults, settings

    assert settings.EXTENSIONS["crawler.extensions.gc_tuning.GarbageCollectorTuning"] == 0
    assert defaults.GC_GEN0_THRESHOLD == 10_000
