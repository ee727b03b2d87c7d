"""What the probe tests start from: a FormItem waiting for its probe, as the smart spider
makes it, and a vocabulary taught by site verdicts."""

from __future__ import annotations

from crawler.deepweb.forms import Form
from crawler.deepweb.relevance import TopicVocabulary
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


def teach(vocabulary: TopicVocabulary, topic_pages: tuple[str, ...]) -> None:
    """The spider's vocabulary learns ``topic_pages`` as on topic and three unrelated
    pages as off topic, as its site verdicts would have taught it."""
    for text in topic_pages:
        vocabulary.learn(text, True)
    for text in ("football scores league", "garden tools plants", "recipes wine cooking"):
        vocabulary.learn(text, False)
