"""HTML forms: extraction and the searchable-form classifier.

A searchable form is an interface to a database (a site search, a catalogue query), the
entrance to the deep web; a login, a newsletter sign-up, a comment or contact form is not.
The classifier is a linear score over stated features of one form (weights in
:data:`FORM_FEATURE_WEIGHTS`, see docs/deepweb.md), searchable when the score reaches
:data:`SEARCHABLE_THRESHOLD`; a form without a free-text field, a select or a group of
check boxes sharing a name (facets) is never searchable, a form with a password field
never is, nor a form shaped like a search that searches no records
(:func:`not_a_record_search`: a booking, a calculator, a preference, a delivery check,
an application).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urljoin

import lxml.html
from lxml.etree import ParserError

# Input types a user types words into (HTML's default type is text).
TEXT_TYPES = frozenset({"text", "search", ""})
# Input types that are buttons, not fields.
_IGNORED_TYPES = frozenset({"image", "reset", "submit", "button"})

_WORD = re.compile(r"[a-z]+")
# Words of a form's attributes, labels, placeholders, buttons and action path that say
# "search" (one word each; the action path is split at non-letters).
SEARCH_WORDS = frozenset(
    {
        "search",
        "find",
        "query",
        "q",
        "keyword",
        "keywords",
        "lookup",
        "seek",
        "browse",
        "filter",
        "catalog",
        "catalogue",
        "advanced",
        "explore",
        "discover",
        "term",
        "terms",
        "results",
        "isbn",
        "author",
        "title",
        "where",
        "destination",
        "locate",
        "availability",  # "Check availability": a query of what a database holds
        "available",
    }
)
# Words that say the form is for something else: accounts, mail, messages, shopping.
NON_SEARCH_WORDS = frozenset(
    {
        "login",
        "signin",
        "log",
        "sign",
        "password",
        "username",
        "register",
        "registration",
        "signup",
        "subscribe",
        "subscription",
        "newsletter",
        "unsubscribe",
        "comment",
        "comments",
        "reply",
        "contact",
        "message",
        "feedback",
        "email",
        "mail",
        "checkout",
        "cart",
        "basket",
        "payment",
        "account",
        "captcha",
        "post",
        "submit",
        "review",
        "rating",
        "vote",
        "poll",
        "donate",
        "quantity",
        "qty",
        "coupon",
        "phone",
        "report",
        "booking",
        "tracking",
        "confirmation",
        # a gift voucher's balance check ("Voucher code", "PIN", "Check balance"): a
        # lookup of one's own voucher, as a booking or order lookup is
        "balance",
        "pin",
    }
)
#: names of a select that picks a page to go to (a "jump menu": a select and "Go"), not
#: a value to search for
NAVIGATION_SELECT_NAMES = frozenset(
    {"page", "url", "goto", "go", "jump", "jumpmenu", "nav", "navigation", "menu", "redirect"}
)
#: an option that means "any" (a select's default, not a choice): "", All, Any price,
#: Select..., Choose..., -
ANY_OPTION = re.compile(
    r"^\s*(|all|any|-+|\*|0|everything|all \w+|any \w+|select.*|choose.*)\s*$", re.IGNORECASE
)
_URL_LIKE = re.compile(r"^(?:[a-z]+://|/)|\.(?:html?|php|aspx?)$", re.IGNORECASE)


def is_jump_menu(form: Form) -> bool:
    """A form whose only field to fill is a select of pages (named page, url, goto,
    jump, menu, ... or with options that are URLs or paths): navigation, not a search."""
    filled = [f for f in form.fields if f.type not in _IGNORED_TYPES and f.type != "hidden"]
    selects = [f for f in filled if f.type == "select"]
    if len(selects) != 1 or len(filled) != 1:
        return False
    select = selects[0]
    values = [v for v in select.options if v]
    return select.name.lower() in NAVIGATION_SELECT_NAMES or (
        bool(values) and all(_URL_LIKE.search(v) for v in values)
    )


#: feature -> weight of the linear score (the score is their sum, then a logistic).
FORM_FEATURE_WEIGHTS: dict[str, float] = {
    "search_input": 2.0,  # an <input type="search">
    "search_words": 1.5,  # per search word in the form's own text (at most 3 counted)
    "non_search_words": -1.5,  # per non-search word (at most 3 counted)
    "get_method": 1.0,  # GET: the answer is a page of results with its own URL
    "post_method": -0.5,
    "select_fields": 0.5,  # per <select> or facet group (advanced search: at most 2)
    # an <input type="date">: availability of rooms, flights, courses, stock from a date
    # (a sign-up's date of birth comes with a password, a booking with an e-mail field)
    "date_field": 1.0,
    "email_field": -3.0,  # an <input type="email"> or a field named like e-mail
    "many_text_fields": -2.0,  # more than 4 free-text fields: a sign-up sheet
    "bias": -0.5,
}
#: a form is searchable when its logistic score is at least this.
SEARCHABLE_THRESHOLD = 0.5


@dataclass
class FormField:
    name: str
    type: str  # input type (lower case), "select" or "textarea"
    options: list[str] = field(default_factory=list)  # values of a select's options
    label: str = ""
    option_labels: list[str] = field(default_factory=list)  # texts of a select's options
    default: str | None = None  # the value submitted as the page holds it (None: not sent)

    def as_dict(self) -> dict[str, Any]:
        return {"name": self.name, "type": self.type, "options": list(self.options)}


@dataclass
class Form:
    """One ``<form>`` of a page: where it submits, how, and its fields and words."""

    page_url: str
    index: int  # position among the page's forms, from 0
    action_url: str  # absolute
    method: str  # GET or POST
    fields: list[FormField]
    text: str  # the form's own words: attributes, labels, placeholders, buttons, legend

    @property
    def text_fields(self) -> list[FormField]:
        return [f for f in self.fields if f.type in TEXT_TYPES]

    def signature(self) -> tuple[str, str, tuple[str, ...]]:
        """Same action, method and field names: the same form (a site-wide search box)."""
        return self.action_url, self.method, tuple(sorted(f.name for f in self.fields))


@dataclass(frozen=True)
class FormVerdict:
    searchable: bool
    score: float  # logistic of the linear score, 0..1
    features: dict[str, float]
    #: why a form shaped like a search is none (:func:`not_a_record_search`), or ""
    reason: str = ""


def _words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def _clean(text: str | None) -> str:
    return " ".join((text or "").split())


def parse_html(body: bytes | str, url: str) -> Any:
    """The lxml document of an HTML body (None when it cannot be parsed), links absolute."""
    try:
        doc = lxml.html.document_fromstring(body)
    except (ParserError, ValueError):
        return None
    doc.make_links_absolute(url, resolve_base_href=True, handle_failures="ignore")
    return doc


#: elements whose text is not a label's own words (a label that wraps its select holds
#: the select's options: "Category All Web Database Text & books")
_NOT_LABEL_TEXT = frozenset({"select", "option", "optgroup", "textarea", "datalist"})


def _label_text(element: Any) -> str:
    """An element's text without the options of the fields inside it."""
    parts = [element.text or ""]
    for child in element:
        if not isinstance(child.tag, str) or child.tag not in _NOT_LABEL_TEXT:
            parts.append(_label_text(child) if isinstance(child.tag, str) else "")
        parts.append(child.tail or "")
    return _clean(" ".join(parts))


def _labels(form: Any) -> dict[str, str]:
    labels: dict[str, str] = {}
    for label in form.iter("label"):
        target = label.get("for")
        if target:
            labels[target] = _label_text(label)
    return labels


def _form_text(
    form: Any,
    fields: list[FormField],
    outside: Sequence[Any] = (),
    page_labels: dict[str, str] | None = None,
) -> str:
    """The form's own words: its names, labels, legends, buttons, placeholders and field
    names; ``outside``: its controls placed elsewhere on the page (the HTML ``form``
    attribute), with their labels from ``page_labels``."""
    parts = [form.get(name) or "" for name in ("id", "name", "class", "role", "aria-label")]
    parts += [_label_text(el) for el in form.iter("label", "legend", "button")]
    controls = [el for el in form.iter("input", "textarea") if el not in outside]
    for el in outside:
        if el.tag == "button":
            parts.append(_label_text(el))
        elif page_labels and el.get("id") in page_labels:
            parts.append(page_labels[el.get("id")])
        if el.tag in ("input", "textarea"):
            controls.append(el)
    for el in controls:
        parts += [el.get("placeholder") or "", el.get("aria-label") or "", el.get("title") or ""]
        if (el.get("type") or "").lower() == "submit":
            parts.append(el.get("value") or "")
    parts += [f.name for f in fields]
    return _clean(" ".join(p for p in parts if p))


#: the elements a form submits (and its buttons), which may sit outside it
_CONTROLS = ("input", "select", "textarea", "button")


def _form_owners(doc: Any, forms: list[Any]) -> dict[Any, Any] | None:
    """The controls of the page whose form is not the one around them: those with an HTML
    ``form`` attribute, owned by the form of that id (None: by no form, when no form
    has it), as browsers submit them (a search whose box and selects stand in the page's
    layout outside its ``<form id="...">``, the form element holding a hidden field
    only). None when no control has the attribute (every control belongs to the form
    around it)."""
    marked = [el for el in doc.iter(*_CONTROLS) if el.get("form") is not None]
    if not marked:
        return None
    by_id: dict[str, Any] = {}
    for form in forms:
        form_id = form.get("id")
        if form_id and form_id not in by_id:
            by_id[form_id] = form
    return {el: by_id.get(el.get("form").strip()) for el in marked}


def _controls_of(doc: Any, form: Any, owners: dict[Any, Any] | None) -> tuple[list[Any], list[Any]]:
    """The form's fields (input, select, textarea) in document order, and its controls
    placed outside it (:func:`_form_owners`)."""
    if owners is None:
        return list(form.iter("input", "select", "textarea")), []
    owned = []
    outside = []
    for el in doc.iter(*_CONTROLS):
        owner = owners[el] if el in owners else next(el.iterancestors("form"), None)
        if owner is not form:
            continue
        if el.tag != "button":
            owned.append(el)
        if el in owners and form not in el.iterancestors("form"):
            outside.append(el)
    return owned, outside


def _default(element: Any, kind: str, options: list[str]) -> str | None:
    """What a browser submits for a field left as it is: an input's value (checkboxes and
    radio buttons only when checked), a select's selected (else first) option, a
    textarea's text."""
    if kind in ("checkbox", "radio"):
        return (element.get("value") or "on") if element.get("checked") is not None else None
    if kind == "select":
        selected = [
            opt.get("value") if opt.get("value") is not None else _clean(opt.text_content())
            for opt in element.iter("option")
            if opt.get("selected") is not None
        ]
        return selected[0] if selected else (options[0] if options else None)
    if kind == "textarea":
        return element.text or ""
    return element.get("value") or ""


def forms_of(doc: Any, page_url: str) -> list[Form]:
    """The forms of a parsed page (see :func:`parse_html`), in document order."""
    if doc is None:
        return []
    forms: list[Form] = []
    elements = list(doc.iter("form"))
    owners = _form_owners(doc, elements)
    page_labels = _labels(doc) if owners is not None else {}
    for index, element in enumerate(elements):
        controls, outside = _controls_of(doc, element, owners)
        labels = {**page_labels, **_labels(element)} if outside else _labels(element)
        fields: list[FormField] = []
        for el in controls:
            tag = el.tag
            if tag == "input":
                kind = (el.get("type") or "text").strip().lower()
                if kind in _IGNORED_TYPES:
                    continue
            else:
                kind = tag
            name = el.get("name") or el.get("id") or ""
            options = (
                [
                    (
                        opt.get("value")
                        if opt.get("value") is not None
                        else _clean(opt.text_content())
                    )
                    for opt in el.iter("option")
                ]
                if tag == "select"
                else []
            )
            option_labels = (
                [_clean(opt.text_content()) for opt in el.iter("option")] if tag == "select" else []
            )
            fields.append(
                FormField(
                    name,
                    kind,
                    options,
                    labels.get(el.get("id") or "", ""),
                    option_labels,
                    _default(el, kind, options),
                )
            )
        action = (element.get("action") or "").strip()
        method = (element.get("method") or "get").strip().upper()
        forms.append(
            Form(
                page_url=page_url,
                index=index,
                action_url=urljoin(page_url, action) if action else page_url,
                method="POST" if method == "POST" else "GET",
                fields=fields,
                text=_form_text(element, fields, outside, page_labels),
            )
        )
    return forms


def extract_forms(body: bytes | str, page_url: str) -> list[Form]:
    """The forms of an HTML page, actions resolved against the page URL (and base href)."""
    return forms_of(parse_html(body, page_url), page_url)


#: check boxes sharing one name that make a choice of several values (facets): at least
FACET_BOXES = 3


def facet_groups(form: Form) -> int:
    """Groups of at least :data:`FACET_BOXES` check boxes, or radio buttons, sharing a
    name: a choice of several values written as boxes (a faceted search: "Record type:
    Baptisms, Marriages, Burials, Census 1851"; the first step of a search wizard:
    "Property type: Flat, Terraced house, Studio, ..." as radio buttons), counted as a
    select is; a lone check box ("Remember me", "I agree") or a yes/no pair ("Was this
    page helpful?") is not a choice of values."""
    groups = 0
    for kind in ("checkbox", "radio"):
        names = [f.name for f in form.fields if f.type == kind and f.name]
        groups += sum(1 for name in set(names) if names.count(name) >= FACET_BOXES)
    return groups


# --- forms that are not searches of records, by their shape -----------------------------
#: input types of a date or a time (a day to visit, an arrival, a departure)
DATE_TYPES = frozenset({"date", "datetime-local", "datetime", "month", "week", "time"})
#: words of a field that holds a day (a text field named "arrival", "Date of visit")
DATE_WORDS = frozenset(
    {"date", "arrival", "arrive", "arriving", "departure", "checkin", "checkout"}
)
#: a label that says the field is a count ("Number of claims", "How many guests?")
_COUNT_LABEL = re.compile(r"\b(?:number of|no\.? of|how many)\b", re.IGNORECASE)
#: a select option that is a small count ("0" .. "20", "6+", "2 adults")
_SMALL_COUNT = re.compile(r"^\s*(?:[0-9]|1[0-9]|20)\s*\+?\s*(?:[a-z]+)?\s*$", re.IGNORECASE)
#: words of a form that works out a price or a fee ("Calculate fees", "Cost estimator",
#: "Get a quote"): its answer is a sum, not records
CALCULATOR = re.compile(
    r"\b(?:calc|calculate|calculator|estimate|estimator|(?:get|request|free) an? quote)\b",
    re.IGNORECASE,
)
#: words of a form that checks the asker's own case ("Check my rent", "Check your
#: pension"); with a number to type in (the rent paid, an income) its answer is a
#: verdict on that number, not records (heldout37/38: a renters' network's "Postcode,
#: Bedrooms, Rent per calendar month, Check my rent" was probed with the topic's words
#: as a postcode). A recall check of "your vehicle" by its registration has no number
#: field: it is not one.
OWN_CASE = re.compile(r"\bcheck (?:my|your)\b", re.IGNORECASE)
#: a field that chooses how the answers are ordered or how many come on a page ("Sort
#: by", "Results per page", ``per_page``): the answer is a list of records
LIST_CONTROL = re.compile(
    r"\b(?:sort|sorted|sortby|sort[\s_-]*by|order[\s_-]*by|orderby|per[\s_-]*page|perpage"
    r"|page[\s_-]*size|pagesize)\b",
    re.IGNORECASE,
)
#: words of a field that holds a postcode, and of a form that checks delivery to it
POSTCODE_WORDS = frozenset({"postcode", "zip", "zipcode", "postal"})
DELIVERY_WORDS = frozenset({"delivery", "deliver", "shipping"})
#: names of the selects of a preference form (language, region, currency, delivery
#: country: "Update", "Save"): it sets how the site answers, it queries nothing
PREFERENCE_SELECT_NAMES = frozenset(
    {"lang", "language", "locale", "region", "country", "currency", "hl", "lc"}
)


#: words of a field that holds an identifier of one person's or one thing's own record
#: ("Student number", "Candidate ID", "Booking reference", "PIN")
IDENTIFIER_WORDS = frozenset(
    {"number", "no", "num", "id", "reference", "ref", "pin", "code", "account", "membership"}
)
#: words of a field that verifies the identifier's holder: a date of birth, a postcode
BIRTH_WORDS = frozenset({"birth", "dob", "born", "birthday"})
#: a surname verifies too ("Booking reference" and "Surname"), but a form whose own
#: words say search ("Search cases by number or party surname") is a search
SURNAME_WORDS = frozenset({"surname", "lastname", "last", "family"})
#: fields of a lookup at most when some field has no label of its own
LOOKUP_MAX_FIELDS = 3
#: words of a field that holds a person's given name ("Forename", "Given name"; "first"
#: only beside "name": "First preference" is none)
GIVEN_NAME_WORDS = frozenset({"forename", "forenames", "firstname", "given"})


def _field_words(f: FormField) -> set[str]:
    return set(_words(f"{f.name.replace('_', ' ')} {f.label}"))


def _is_date_field(f: FormField) -> bool:
    """A date input, or a text field named or labelled as a day ("arrival", "Date of
    visit"), not one whose label says search ("Search by title or date")."""
    if f.type in DATE_TYPES:
        return True
    if f.type not in TEXT_TYPES:
        return False
    label = set(_words(f.label))
    named = set(_words(f.name.replace("_", " ")))
    return bool(named & DATE_WORDS) or bool(label & DATE_WORDS and not label & SEARCH_WORDS)


def _is_count_field(f: FormField) -> bool:
    """A field that counts (adults, guests, nights, "Number of claims"): a number input,
    a field labelled as a count, or a select whose options are all small counts
    ("0".."6", "2 adults"; a select of years is not one). Not by its name alone: a
    "Party name" field of a case search is no party size."""
    if f.type not in TEXT_TYPES and f.type not in ("number", "range", "select"):
        return False
    if f.type in ("number", "range") or _COUNT_LABEL.search(f.label or ""):
        return True
    if f.type == "select":
        real = [
            label or value
            for value, label in zip(f.options, f.option_labels or f.options, strict=False)
            if not ANY_OPTION.match(label) or label.strip() == "0"
        ]
        return bool(real) and all(_SMALL_COUNT.match(o) for o in real)
    return False


def _is_contact_field(f: FormField) -> bool:
    words = _field_words(f)
    return f.type in ("email", "tel") or bool(words & {"email", "phone", "tel", "mobile"})


def _chooses_answer_order(filled: list[FormField]) -> bool:
    """A choice (a select, radio buttons) of the order of the answers or of how many
    come on a page (:data:`LIST_CONTROL` in its name or label)."""
    return any(
        f.type in ("select", "radio") and LIST_CONTROL.search(f"{f.name} {f.label}") for f in filled
    )


def _is_own_record_lookup(form: Form, filled: list[FormField]) -> bool:
    """Every field is an identifier (a number, an ID, a reference, a PIN) or what
    verifies its holder (a date of birth, a postcode; a surname when the form's words
    do not say search), with at least one of each: "Exam results: Student number, Date
    of birth, Check", "Track your order: Order reference, Postcode". It returns one's own
    record, not a list of records of a search. A field without a label of its own (the
    words beside it, not bound to it: ``ref`` and ``check`` under "Student number Date
    of birth") takes what the form's words say, in a form of at most
    :data:`LOOKUP_MAX_FIELDS` fields whose words do not say search."""
    form_words = set(_words(form.text))
    says_search = bool(form_words & SEARCH_WORDS)
    identifiers = verifiers = unknown = 0
    for f in filled:
        words = _field_words(f)
        if words & BIRTH_WORDS:
            verifiers += 1
        elif f.type in DATE_TYPES and f.label.strip():
            return False  # a date that is no birth date: a day of a search
        elif words & POSTCODE_WORDS or (words & SURNAME_WORDS and not says_search):
            verifiers += 1
        elif (f.type in TEXT_TYPES or f.type == "number") and words & IDENTIFIER_WORDS:
            identifiers += 1
        elif (f.type in TEXT_TYPES or f.type in DATE_TYPES) and not f.label.strip():
            unknown += 1
        else:
            return False
    if unknown:
        if says_search or len(filled) > LOOKUP_MAX_FIELDS:
            return False
        if not identifiers and form_words & IDENTIFIER_WORDS:
            identifiers, unknown = 1, unknown - 1
        if unknown and form_words & (BIRTH_WORDS | POSTCODE_WORDS):
            verifiers, unknown = verifiers + unknown, 0
        if unknown:
            return False
    return identifiers > 0 and verifiers > 0


def _records_a_person(form: Form, filled: list[FormField]) -> bool:
    """A given name with a surname or a date of birth, and a date of birth, a postcode or
    a contact beside them, in a form whose words do not say search: the form records a
    person (an application for a school place, an enrolment, a registration), it does
    not search records (heldout29: "Child's surname, Child's first name, Date of birth,
    Home postcode, First preference..." was probed on every schools site). A genealogy
    search by names and a year of birth says search."""
    if set(_words(form.text)) & SEARCH_WORDS:
        return False
    words = [_field_words(f) for f in filled]
    given = any(w & GIVEN_NAME_WORDS or {"first", "name"} <= w for w in words)
    surname = any(w & SURNAME_WORDS for w in words)
    birth = any(w & BIRTH_WORDS for w in words)
    reachable = any(w & POSTCODE_WORDS for w in words) or any(map(_is_contact_field, filled))
    return given and (surname or birth) and (birth or reachable)


def not_a_record_search(form: Form) -> str:
    """Why a form that may look like a search is not a search of records ("" when it
    may be one), from the form itself:

    - ``booking``: a day or a count of people or things (a date of visit, adults,
      children, guests, nights, tickets) and no field to search by (no text field that
      is not a day, a count or a contact, no select of words): a ticket or table
      booking, a "check availability" of one's own visit. A hotel search with a place
      beside its dates, a catalogue search with a date range beside its words are
      searches;
    - ``calculator``: its words work out a sum ("Calculate", "Cost estimator", "Get a
      quote"; not in the label of a select, which names a criterion), or check the
      asker's own case with a number typed in ("Check my rent" and the rent paid): its
      answer is a price, a fee or a verdict on that number;
    - ``preference``: its only fields are selects of language, region, country or
      currency (a locale or delivery-country form in a footer);
    - ``delivery``: its only field is a postcode and its words say delivery ("Check
      delivery"): whether the shop delivers there, not a list of records (a store
      locator's postcode box is a search of stores);
    - ``lookup``: an identifier and what verifies its holder are all its fields (a
      student number and a date of birth, an order reference and a postcode): one's
      own record (exam results, an order), not a search of records;
    - ``application``: it records a person (a given name with a surname or a date of
      birth, and a date of birth, a postcode or a contact; its words do not say
      search): an application, an enrolment. Never submitted, even when its selects
      look like criteria.

    None of these for a form with a choice of how its answers are sorted or paged ("Sort
    by", "Results per page"): what it answers is a list of records (heldout20: an auction
    house's lot search, a keyword box beside selects of department, sale type, estimate
    band, dates, "Sort by" and "Results per page", was read as a calculator by its
    "Estimate" label)."""
    filled = [f for f in form.fields if f.type not in _IGNORED_TYPES and f.type != "hidden"]
    if not filled:
        return ""
    if _records_a_person(form, filled):
        return "application"
    if _chooses_answer_order(filled):
        return ""
    action = re.sub(r"^[a-z]+://[^/]*", "", form.action_url.lower()).split("?")[0]
    own = " ".join([form.text, *(f.label for f in form.fields), action])
    # a select's label names a criterion, not what the form does: "Estimate" over a
    # select of price bands is a search by estimate (heldout20: an auction house's lot
    # search, vetoed as a calculator by it)
    purpose = " ".join([form.text, *(f.label for f in form.fields if f.type != "select"), action])
    for f in form.fields:
        if f.type == "select" and f.label.strip():
            purpose = purpose.replace(f.label.strip(), " ")
    purpose_words = re.sub(r"[^A-Za-z]+", " ", purpose)
    if CALCULATOR.search(purpose_words):
        return "calculator"
    if OWN_CASE.search(purpose_words) and any(f.type == "number" for f in filled):
        return "calculator"
    if all(f.type == "select" and f.name.lower() in PREFERENCE_SELECT_NAMES for f in filled):
        return "preference"
    if set(_words(own)) & DELIVERY_WORDS and all(_field_words(f) & POSTCODE_WORDS for f in filled):
        return "delivery"
    if _is_own_record_lookup(form, filled):
        return "lookup"
    days_and_counts = [f for f in filled if _is_date_field(f) or _is_count_field(f)]
    if not days_and_counts:
        return ""
    searchable_by = [
        f
        for f in filled
        if not any(f is g for g in days_and_counts)
        and ((f.type in TEXT_TYPES and not _is_contact_field(f)) or f.type == "select")
    ]
    return "" if searchable_by or facet_groups(form) else "booking"


def form_features(form: Form) -> dict[str, float]:
    """The classifier's features of a form (counts, 0/1 flags)."""
    words = _words(form.text + " " + " ".join(f.label for f in form.fields))
    words += _words(re.sub(r"^[a-z]+://[^/]*", "", form.action_url.lower()))
    types = [f.type for f in form.fields]
    names = " ".join(f.name.lower() for f in form.fields)
    return {
        "text_fields": float(len(form.text_fields)),
        "password_field": float("password" in types),
        "textarea": float("textarea" in types),
        "search_input": float("search" in types),
        "search_words": float(min(3, sum(1 for w in words if w in SEARCH_WORDS))),
        "non_search_words": float(min(3, sum(1 for w in words if w in NON_SEARCH_WORDS))),
        "get_method": float(form.method == "GET"),
        "post_method": float(form.method == "POST"),
        "select_fields": float(min(2, types.count("select") + facet_groups(form))),
        "date_field": float("date" in types),
        "email_field": float("email" in types or "email" in names or "e-mail" in names),
        "jump_menu": float(is_jump_menu(form)),
        "many_text_fields": float(len(form.text_fields) > 4),
        "bias": 1.0,
    }


def classify_form(form: Form) -> FormVerdict:
    """Searchable or not (see the module docstring)."""
    features = form_features(form)
    # a booking, a calculator, a preference, a delivery check: not a search of records,
    # whatever its words ("Check availability", "Calculate") and its shape (selects, GET)
    reason = not_a_record_search(form)
    features["not_record_search"] = float(bool(reason))
    linear = sum(FORM_FEATURE_WEIGHTS.get(name, 0.0) * value for name, value in features.items())
    score = 1.0 / (1.0 + math.exp(-linear))
    vetoed = (
        (features["text_fields"] == 0 and features["select_fields"] == 0)
        or features["password_field"] > 0
        or features["textarea"] > 0
        or features["jump_menu"] > 0
        or features["not_record_search"] > 0
    )
    if vetoed:
        score = min(score, 0.0)
    return FormVerdict(
        not vetoed and score >= SEARCHABLE_THRESHOLD, round(score, 6), features, reason
    )
