"""A confirmed probe whose form was judged not relevant is judged again on its records
when the topic vocabulary grows (heldout11 at the eighth round: a case-law site's probe
answered before the vocabulary had learned anything, and was never judged again)."""

from __future__ import annotations

from scrapy.utils.test import get_crawler

from crawler.deepweb import extract_forms
from crawler.spiders.smart import ProbedRecords, ProbeState, SmartSpider
from tests.deepweb.items import pending_form_item, teach


def test_a_probes_records_are_judged_again_when_the_vocabulary_grows():
    spider = SmartSpider.from_crawler(get_crawler(SmartSpider), topic="caselaw")
    (form,) = extract_forms(
        b"""<form action="/search"><label for="q">Search</label><input id="q" name="q">
        <button>Go</button></form>""",
        "http://www.lawlib.test/",
    )
    item = pending_form_item(
        form, "www.lawlib.test", relevant=False, relevance_score=0.3, site_score=0.75,
        form_score=0.0,
    )
    records = {"appeal", "tribunal", "judgment", "court"}
    url = "http://www.lawlib.test/search?q=caselaw"
    spider.probed_records = [
        ProbedRecords(ProbeState(form, item, {}, 0, {"caselaw"}), records, "records", url, 2)
    ]
    # the vocabulary has learned nothing: the records count for nothing, the probe waits
    assert spider.probed_items_now_relevant() == []
    assert len(spider.probed_records) == 1
    teach(spider.vocabulary, (
        "caselaw court appeal tribunal judgment reports",
        "caselaw appeal court judgment tribunal law",
        "caselaw judgment appeal court tribunal",
    ))  # fmt: skip
    (again,) = spider.probed_items_now_relevant()
    assert (again.relevant, again.relevance_score, again.confirmed) == (True, 0.6, True)
    assert (again.probe, again.probe_url, again.result_records) == ("records", url, 2)
    assert spider.probed_records == []  # judged once relevant, not sent again
