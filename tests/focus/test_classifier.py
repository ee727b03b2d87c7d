"""Topic by example: the examples file, Naive Bayes and TF-IDF cosine models."""

from __future__ import annotations

import pytest

from crawler.focus import (
    COSINE,
    NAIVE_BAYES,
    Example,
    ExamplesError,
    RelevanceModel,
    TopicClassifier,
    read_examples,
    read_local_example,
)

JAVA_TEXTS = [
    "Java classes compile to bytecode that the JVM runs; the garbage collector frees heap.",
    "Spring beans and dependency injection in Java; Maven builds the jar with javac.",
    "Generics, lambdas and streams in modern Java; threads and concurrency on the JVM.",
]
OTHER_TEXTS = [
    "Simmer the tomato sauce with garlic and basil, then bake the pasta in the oven.",
    "The striker scored a late goal; the goalkeeper saved a penalty in the derby.",
    "Prune the roses in spring and mulch the vegetable patch with compost.",
]


def test_read_examples(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.html").write_text("<title>A</title><p>java</p>")
    (tmp_path / "b.txt").write_text("cooking")
    examples = tmp_path / "examples.txt"
    examples.write_text(
        "# on-topic\nhttp://www.javadev.test/\n+ docs/a.html\n\n- b.txt\n"
        "-https://www.alpha.test/recipes/\n"
    )
    assert read_examples(examples) == [
        Example("http://www.javadev.test/", True),
        Example(str((tmp_path / "docs" / "a.html").resolve()), True),
        Example(str((tmp_path / "b.txt").resolve()), False),
        Example("https://www.alpha.test/recipes/", False),
    ]
    assert read_local_example(tmp_path / "docs" / "a.html") == "A\njava"
    assert read_local_example(tmp_path / "b.txt") == "cooking"


def test_examples_errors(tmp_path):
    with pytest.raises(ExamplesError, match="does not exist"):
        read_examples(tmp_path / "missing.txt")
    bad = tmp_path / "bad.txt"
    bad.write_text("http://a.test/\nmissing.html\n")
    with pytest.raises(ExamplesError, match="bad.txt:2: example file 'missing.html'"):
        read_examples(bad)
    negatives = tmp_path / "negatives.txt"
    negatives.write_text("- http://a.test/\n")
    with pytest.raises(ExamplesError, match="no on-topic example"):
        read_examples(negatives)
    with pytest.raises(ExamplesError, match="no on-topic example has any searchable word"):
        TopicClassifier(["the of and"], OTHER_TEXTS)


def test_naive_bayes_with_off_topic_examples():
    classifier = TopicClassifier(JAVA_TEXTS, OTHER_TEXTS)
    assert classifier.model == NAIVE_BAYES and classifier.examples == (3, 3)
    java, cooking, unknown = classifier.scores([
        "The JVM garbage collector and Java bytecode",
        "Bake the bread in the oven with garlic butter",
        "zzz qqq",
    ])
    assert java > 0.6 and cooking < 0.4
    assert unknown == pytest.approx(0.5)  # no known term: the uniform prior


def test_cosine_with_on_topic_examples_only():
    classifier = TopicClassifier(JAVA_TEXTS)
    assert classifier.model == COSINE
    java, cooking, unknown = classifier.scores([
        "The JVM garbage collector and Java bytecode", OTHER_TEXTS[0], "zzz qqq",
    ])
    assert 0.3 < java <= 1.0 and cooking == 0.0 and unknown == 0.0


def test_relevance_model_with_a_classifier():
    classifier = TopicClassifier(JAVA_TEXTS, OTHER_TEXTS)
    model = RelevanceModel(None, classifier=classifier, classifier_threshold=0.6)
    assert model.threshold == 0.6
    page = model.judge(url="http://x.test/", title="JVM", text="garbage collector heap jar",
                       outlinks=3)
    assert page.parts is None and page.relevant and page.weight == classifier.score(
        "JVM\ngarbage collector heap jar")
    scores = model.link_scores(page, [("bytecode and javac", "http://x.test/jvm/heap"),
                                      ("pasta sauce", "http://x.test/oven/garlic")])
    assert scores[0] > scores[1]
    cosine = RelevanceModel(None, classifier=TopicClassifier(JAVA_TEXTS),
                            similarity_threshold=0.25)
    assert cosine.threshold == 0.25
    with pytest.raises(ValueError, match="a query or a classifier"):
        RelevanceModel(None)
