"""The evaluation news site: its pages, their change rates and the change trace.

Plain stdlib, no import of the project. Everything is a function of (model, seed):
the site's structure, every page's Poisson change rate, every change time (offsets in
seconds from the moment the site's clock starts) and the content of every version.

Change models (mean change intervals, time-compressed so that a 15-minute run sees
the spectrum). Shares come from Cho and Garcia-Molina, "The evolution of the web and
implications for an incremental crawler" (VLDB 2000), figure 2: the share of pages
whose average change interval falls in <=1 day, 1 day-1 week, 1 week-1 month,
1-4 months, >4 months (over all domains; the .com domain; the .edu/.gov domains).
Pages in the ">4 months" class never change during a run. Within a class the interval
is log-uniform. "heldout1" instead draws rates from a gamma distribution (the rate
distribution Cho and Garcia-Molina use in "Synchronizing a database to improve
freshness", SIGMOD 2000) with a share of pages that never change.
"""

from __future__ import annotations

import hashlib
import math
import random
from dataclasses import dataclass, field

HOST = "www.dailynews.test"
BASE = f"http://{HOST}"
DAY_REAL = 86400.0

# Rate classes used in the report, by true mean change interval (seconds of the run).
CLASS_FAST_MAX = 60.0
CLASS_MEDIUM_MAX = 900.0
RATE_CLASSES = ("fast", "medium", "slow", "never")


def rate_class(rate: float) -> str:
    if rate <= 0:
        return "never"
    interval = 1.0 / rate
    if interval < CLASS_FAST_MAX:
        return "fast"
    if interval < CLASS_MEDIUM_MAX:
        return "medium"
    return "slow"


@dataclass(frozen=True)
class ChangeModel:
    name: str
    role: str  # DEVELOPMENT or HELD-OUT
    default_seed: int
    description: str
    day_seconds: float  # one real day of the source distribution lasts this long in a run
    # (share, low_days, high_days); high_days None: never changes during a run
    buckets: tuple = ()
    gamma_shape: float = 0.0  # >0: rates ~ Gamma(shape, scale/day) instead of buckets
    gamma_scale_per_day: float = 0.0
    gamma_never_share: float = 0.0
    min_interval: float = 1.5  # seconds; faster draws are clipped
    kind_priors: dict = field(default_factory=dict)  # liveliness by page kind
    kind_noise: float = 1.0  # gaussian noise on the liveliness (large: kind says little)


MODELS: dict[str, ChangeModel] = {
    "dev": ChangeModel(
        name="dev",
        role="DEVELOPMENT",
        default_seed=26,
        description="Cho & Garcia-Molina 2000 fig. 2, all domains (23% <=1 day, 15% <=1 week, "
        "16% <=1 month, 16% <=4 months, 30% more); 1 day = 60 s; page kind predicts rate strongly",
        day_seconds=60.0,
        buckets=(
            (0.23, 1 / 24, 1.0),
            (0.15, 1.0, 7.0),
            (0.16, 7.0, 30.0),
            (0.16, 30.0, 120.0),
            (0.30, 120.0, None),
        ),
        kind_priors={
            "front": 6.0,
            "section": 3.0,
            "tag": 1.2,
            "author": 0.6,
            "article": 0.0,
            "archive": -1.0,
            "static": -4.0,
        },
        kind_noise=1.0,
    ),
    "heldout1": ChangeModel(
        name="heldout1",
        role="HELD-OUT",
        default_seed=611,
        description="gamma-distributed rates (shape 0.5) with 15% of pages never changing, "
        "tuned to the .com share of Cho & Garcia-Molina 2000 (~40% change within a day); "
        "1 day = 90 s; page kind predicts rate weakly",
        day_seconds=90.0,
        gamma_shape=0.5,
        gamma_scale_per_day=4.0,
        gamma_never_share=0.15,
        kind_priors={
            "front": 6.0,
            "section": 1.0,
            "tag": 0.5,
            "author": 0.0,
            "article": 0.3,
            "archive": -0.5,
            "static": -1.0,
        },
        kind_noise=2.5,
    ),
    "heldout2": ChangeModel(
        name="heldout2",
        role="HELD-OUT",
        default_seed=4049,
        description="Cho & Garcia-Molina 2000 fig. 2, .edu/.gov-like (10% <=1 day, 10% <=1 week, "
        "15% <=1 month, 15% <=4 months, 50% more); 1 day = 40 s; page kind says nothing "
        "except that the front page is fast",
        day_seconds=40.0,
        buckets=(
            (0.10, 1 / 24, 1.0),
            (0.10, 1.0, 7.0),
            (0.15, 7.0, 30.0),
            (0.15, 30.0, 120.0),
            (0.50, 120.0, None),
        ),
        kind_priors={"front": 8.0},
        kind_noise=1.0,
    ),
}

SECTIONS = ("world", "politics", "business", "technology", "science", "sport", "culture", "opinion")
WORDS = (
    "council minister market energy storm vaccine election harbour budget court police river "
    "school rail strike festival museum league coach striker transfer treaty summit tariff "
    "startup chip satellite climate drought flood wildfire bridge housing rent inflation bank "
    "merger union teachers doctors hospital ferry airport runway mayor senator protest verdict "
    "jury reform pension tax export import harvest orchard vineyard gallery novel theatre opera "
    "album premiere derby marathon record glacier volcano telescope genome reactor battery grid "
    "turbine coastline village province capital border refugee aid ceasefire envoy talks deal"
).split()
TAGS = (
    "breaking elections economy climate health education transport crime courts housing "
    "energy space ai football tennis cycling film music books art weather europe asia africa "
    "americas trade diplomacy jobs science-policy local"
).split()
AUTHORS = (
    "ana-ruiz",
    "ben-okafor",
    "chloe-martin",
    "dev-patel",
    "eva-novak",
    "farid-haddad",
    "grace-liu",
    "hugo-berg",
    "ines-costa",
    "jon-eriksen",
    "kim-sato",
    "lea-dubois",
)
STATIC = ("about", "contact", "terms", "privacy", "newsletter", "advertise")
ARCHIVE_DAYS = 14
ARTICLES_PER_SECTION = 30
ARTICLE_DATE_END = (2026, 11, 26)


@dataclass
class Page:
    path: str
    kind: str
    title: str
    rate: float = 0.0  # changes per second (0: never)
    links: list[str] = field(default_factory=list)  # fixed links (paths)
    listing: list[str] = field(default_factory=list)  # articles the page lists (paths)
    day: int = 0  # articles and archive pages: days before ARTICLE_DATE_END
    section: str = ""
    author: str = ""
    tags: list[str] = field(default_factory=list)
    changes: list[float] = field(default_factory=list)  # offsets (s) from the clock start
    past: list[float] = field(default_factory=list)  # offsets <= 0 of earlier changes, newest first


def _date(days_before: int) -> tuple[int, int, int]:
    y, m, d = ARTICLE_DATE_END
    d -= days_before
    while d < 1:
        m -= 1
        d += 30 if m in (4, 6, 9, 11) else 31
    return y, m, d


def _slug(rnd: random.Random, n: int) -> str:
    return "-".join(rnd.choice(WORDS) for _ in range(n))


def _draw_intervals(model: ChangeModel, n: int, rnd: random.Random) -> list[float]:
    """n mean change intervals (seconds of the run; inf = never), fastest first."""
    out: list[float] = []
    if model.gamma_shape > 0:
        for _ in range(n):
            if rnd.random() < model.gamma_never_share:
                out.append(math.inf)
                continue
            rate_per_day = rnd.gammavariate(model.gamma_shape, model.gamma_scale_per_day)
            interval = model.day_seconds / rate_per_day if rate_per_day > 0 else math.inf
            out.append(max(interval, model.min_interval))
    else:
        cum = []
        acc = 0.0
        for share, lo, hi in model.buckets:
            acc += share
            cum.append((acc, lo, hi))
        for _ in range(n):
            u = rnd.random() * acc
            _, lo, hi = next((c for c in cum if u <= c[0]), cum[-1])
            if hi is None:
                out.append(math.inf)
            else:
                days = math.exp(rnd.uniform(math.log(lo), math.log(hi)))
                out.append(max(days * model.day_seconds, model.min_interval))
    out.sort()
    return out


def _change_offsets(rate: float, rnd: random.Random, horizon: float) -> list[float]:
    """Poisson change times in (0, horizon]; at most one change per whole second, since
    Last-Modified has a resolution of one second (a later change in the same second is
    moved to the next second) so that If-Modified-Since never hides a change."""
    out: list[float] = []
    if rate <= 0:
        return out
    t = 0.0
    last_second = -1  # the clock starts on a whole second; version 0 is older
    while True:
        t += rnd.expovariate(rate)
        if t > horizon:
            return out
        if math.floor(t) <= last_second:
            t = last_second + 1 + rnd.random() * 0.5
        if t > horizon:
            return out
        out.append(t)
        last_second = math.floor(t)


class Site:
    def __init__(self, model: ChangeModel, seed: int, horizon: float) -> None:
        self.model = model
        self.seed = seed
        self.horizon = horizon
        self.pages: dict[str, Page] = {}
        self._build()
        self._assign_rates()
        for page in self.pages.values():
            rnd = random.Random(f"{seed}/trace/{page.path}")
            page.changes = _change_offsets(page.rate, rnd, horizon)
            page.past = self._past_changes(page, random.Random(f"{seed}/past/{page.path}"))

    # -- structure -------------------------------------------------------------------------
    def _add(self, page: Page) -> Page:
        self.pages[page.path] = page
        return page

    def _build(self) -> None:
        rnd = random.Random(f"{self.seed}/structure")
        front = self._add(Page("/", "front", "The Daily News"))
        sections = {s: self._add(Page(f"/{s}/", "section", s.capitalize())) for s in SECTIONS}
        tags = {t: self._add(Page(f"/tag/{t}/", "tag", f"Tag: {t}")) for t in TAGS}
        authors = {
            a: self._add(Page(f"/author/{a}/", "author", a.replace("-", " ").title()))
            for a in AUTHORS
        }
        archives = {}
        for day in range(ARCHIVE_DAYS):
            y, m, d = _date(day)
            archives[day] = self._add(
                Page(
                    f"/archive/{y}/{m:02d}/{d:02d}/",
                    "archive",
                    f"Archive {y}-{m:02d}-{d:02d}",
                    day=day,
                )
            )
        statics = [self._add(Page(f"/{s}/", "static", s.capitalize())) for s in STATIC]
        articles: list[Page] = []
        for s in SECTIONS:
            for i in range(ARTICLES_PER_SECTION):
                # recent days hold more articles, as on a news site
                day = min(int(rnd.expovariate(1 / 3.5)), ARCHIVE_DAYS - 1)
                y, m, d = _date(day)
                slug = _slug(rnd, 4)
                art = Page(
                    f"/{s}/{y}/{m:02d}/{d:02d}/{slug}-{i + 1}.html",
                    "article",
                    slug.replace("-", " ").capitalize(),
                    day=day,
                    section=s,
                    author=rnd.choice(AUTHORS),
                    tags=rnd.sample(TAGS, rnd.randint(1, 3)),
                )
                articles.append(self._add(art))
                sections[s].listing.append(art.path)
                tags_ = art.tags
                for t in tags_:
                    tags[t].listing.append(art.path)
                authors[art.author].listing.append(art.path)
                archives[day].listing.append(art.path)
        articles.sort(key=lambda a: (a.day, a.path))
        self.articles = [a.path for a in articles]
        nav = ["/"] + [p.path for p in sections.values()]
        foot = [p.path for p in statics] + ["/archive/" + "/".join(self._archive_parts(0)) + "/"]
        for art in articles:
            related = rnd.sample([a for a in sections[art.section].listing if a != art.path], 3)
            art.links = (
                nav
                + [f"/tag/{t}/" for t in art.tags]
                + [f"/author/{art.author}/", archives[art.day].path]
                + related
                + foot
            )
        front.links = (
            nav + [p.path for p in tags.values()] + [a.path for a in archives.values()] + foot
        )
        for p in list(sections.values()) + list(tags.values()) + list(authors.values()):
            p.links = nav + foot
        for day, p in archives.items():
            p.links = nav + foot + [archives[x].path for x in (day - 1, day + 1) if x in archives]
        for p in statics:
            p.links = nav + foot

    @staticmethod
    def _archive_parts(day: int) -> list[str]:
        y, m, d = _date(day)
        return [str(y), f"{m:02d}", f"{d:02d}"]

    def _liveliness(self, page: Page, rnd: random.Random) -> float:
        prior = self.model.kind_priors.get(page.kind, 0.0)
        if page.kind in ("article", "archive") and prior != 0.0:
            prior -= 0.15 * page.day  # older stories and days change less
        return prior + rnd.gauss(0.0, self.model.kind_noise)

    def _assign_rates(self) -> None:
        rnd = random.Random(f"{self.seed}/rates/{self.model.name}")
        paths = sorted(self.pages)
        intervals = _draw_intervals(self.model, len(paths), rnd)
        ranked = sorted(paths, key=lambda p: -self._liveliness(self.pages[p], rnd))
        for path, interval in zip(ranked, intervals, strict=True):
            self.pages[path].rate = 0.0 if math.isinf(interval) else 1.0 / interval

    def _past_changes(self, page: Page, rnd: random.Random) -> list[float]:
        """Earlier change offsets (<= 0, newest first): the page's history before the run,
        consistent with its rate; a page that never changes was last changed 30-400 days ago
        (real days: the site's clock runs in real time for them)."""
        if page.rate <= 0:
            return [-rnd.uniform(30, 400) * DAY_REAL]
        out, t = [], 0.0
        for _ in range(5):
            t -= max(rnd.expovariate(page.rate), 1.0)
            out.append(math.floor(t))
        return out

    # -- versions ----------------------------------------------------------------------------
    def version_at(self, page: Page, offset: float | None) -> int:
        """Version current at `offset` seconds after the clock start (None: not started)."""
        if offset is None or not page.changes:
            return 0
        lo, hi = 0, len(page.changes)
        while lo < hi:
            mid = (lo + hi) // 2
            if page.changes[mid] <= offset:
                lo = mid + 1
            else:
                hi = mid
        return lo

    def version_offset(self, page: Page, version: int) -> float:
        """Offset of the change that created `version` (version 0: its last past change)."""
        return page.changes[version - 1] if version > 0 else page.past[0]

    def etag(self, page: Page, version: int) -> str:
        h = hashlib.sha1(
            f"{self.seed}|{self.model.name}|{page.path}|{version}".encode()
        ).hexdigest()
        return f'"{h[:20]}"'

    def headline(self, page: Page, version: int) -> str:
        if version == 0 or page.kind != "article":
            return page.title
        rnd = random.Random(f"{self.seed}/headline/{page.path}/{version}")
        lead = rnd.choice(("Update", "Live", "Latest", "Developing", "Revised", "New details"))
        return (
            f"{lead}: {page.title} as {rnd.choice(WORDS)} {rnd.choice(WORDS)} {rnd.choice(WORDS)}"
        )

    def all_changes(self) -> list[tuple[float, str, int]]:
        """Every change (offset, path, new version), past and future, oldest first."""
        out = []
        for p in self.pages.values():
            for i, t in enumerate(reversed(p.past)):
                out.append((t, p.path, -(len(p.past) - 1 - i)))
            for v, t in enumerate(p.changes, start=1):
                out.append((t, p.path, v))
        out.sort()
        return out
