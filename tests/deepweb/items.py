"""A FormItem waiting for its probe, as the smart spider makes it: what the probe tests
start from."""

from __future__ import annotations

from crawler.deepweb.forms import Form
from crawler.items import FormItem


def pending_form_item(
    form: Form,
    site: str,
    *,
    relevant: bool,
    relevance_score: float,
    site_score: float,
    form_score: float,
) -> FormItem:
    return FormItem(
        site=site,
        page_url=form.page_url,
        form_index=0,
        action_url=form.action_url,
        method="GET",
        fields=[],
        searchable=True,
        searchable_score=0.9,
        relevant=relevant,
        relevance_score=relevance_score,
        site_score=site_score,
        form_score=form_score,
        probe="pending",
    )
