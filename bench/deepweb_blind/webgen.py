"""Generator of the blind deep-web evaluation web (deterministic from a seed).

A web is a set of small sites under fake host names: for each of six topics five
sites with a search form over their records (one with the form on its home page, four
with it one to three links below) and a review blog without one; off-topic sites with
their own search boxes (a programming language's documentation, a news paper, a
hardware store, a gardening forum, a weather site); two web directories and a links
blog that the crawl starts from. Every page also carries forms that are not searches
(newsletter, login, contact, comment, checkout, add to cart, order tracking, store
locator, "sell us / post / list yours" forms). ``Web.ground_truth()`` says which form
is what. ``Web.respond()`` answers a request (static pages, robots.txt, form actions).
"""

from __future__ import annotations

import dataclasses
import hashlib
import html
import random
import re
import urllib.parse
from dataclasses import dataclass, field

from topics import (
    FRESH2_LINKS,
    FRESH3_LINKS,
    FRESH4_LINKS,
    FRESH5_LINKS,
    FRESH6_LINKS,
    FRESH7_LINKS,
    FRESH8_LINKS,
    FRESH9_LINKS,
    FRESH10_LINKS,
    FRESH11_LINKS,
    FRESH12_LINKS,
    FRESH13_LINKS,
    FRESH_LINKS,
    TOPICS,
)

WEBS = {
    # name: (seed, designated topic, the six topics of the web, held out?)
    "dev": (1, "books", ["books", "movies", "jobs", "autos", "music", "recipes"], False),
    "heldout1": (7301, "movies", ["movies", "books", "realestate", "airfare", "jobs", "recipes"], True),
    "heldout2": (5519, "jobs", ["jobs", "autos", "music", "books", "realestate", "airfare"], True),
    "heldout3": (9047, "autos", ["autos", "recipes", "movies", "airfare", "music", "jobs"], True),
    # fresh held-out webs (2026-11-26): topics, page layouts, link names and forms that the
    # webs above lack; never run before they were committed
    "heldout4": (6133, "courses", ["courses", "pets", "books", "jobs", "events", "recipes"], True),
    "heldout5": (8821, "pets", ["pets", "courses", "movies", "autos", "events", "realestate"], True),
    # fresh held-out webs added 2026-11-26 after the author had read the scores of heldout1-5:
    # topics never scored, and shapes none of the webs above has (see FRESH2 below)
    "heldout6": (4271, "hotels", ["hotels", "wine", "books", "autos", "events", "recipes"], True),
    "heldout7": (2957, "plants", ["plants", "instruments", "movies", "jobs", "courses", "realestate"], True),
    # fresh held-out webs added 2026-11-26 after the author had read the scores of dev and
    # heldout1-7: topics never scored or present, new site names, link wordings and shapes (FRESH3)
    "heldout8": (61843, "genealogy", ["genealogy", "bicycles", "movies", "wine", "events", "jobs"], True),
    "heldout9": (38609, "patents", ["patents", "boats", "books", "instruments", "pets", "recipes"], True),
    # fresh held-out webs added 2026-11-26 (fourth batch) after the author had read the scores of
    # dev and heldout1-9: topics never present before, new names and shapes (FRESH4)
    "heldout10": (27688, "trials", ["trials", "papers", "wine", "books", "events", "autos"], True),
    "heldout11": (19902, "caselaw", ["caselaw", "papers", "jobs", "music", "boats", "realestate"], True),
    "heldout12": (67625, "museums", ["museums", "instruments", "movies", "bicycles", "airfare", "recipes"], True),
    # fresh held-out webs added 2026-11-27 (fifth batch) after the author had read the scores of
    # dev and heldout1-12: topics never present before, each beside a topic that shares its words,
    # new names, and the shapes of FRESH5 below
    "heldout13": (84127, "grants", ["grants", "scholarships", "jobs", "courses", "events", "books"], True),
    "heldout14": (50963, "rentals", ["rentals", "realestate", "events", "autos", "pets", "recipes"], True),
    "heldout15": (73319, "recalls", ["recalls", "legislation", "autos", "bicycles", "instruments", "wine"], True),
    # fresh held-out webs added 2026-11-27 (sixth batch) after the author had read the scores of dev
    # and heldout1-15: topics never present before, named on their sites in other words, beside
    # topics that share their words; new names and the shapes of FRESH6 below
    "heldout16": (23178, "tenders", ["tenders", "scholarships", "jobs", "legislation", "events", "autos"], True),
    "heldout17": (24811, "sheetmusic", ["sheetmusic", "music", "instruments", "books", "courses", "pets"], True),
    # fresh held-out webs added 2026-11-27 (seventh batch) after the author had read the scores of dev
    # and heldout1-17: topics never present before (two named on their sites in other words, one
    # plainly), new names and the shapes of FRESH7 below
    "heldout18": (41957, "obituaries", ["obituaries", "events", "books", "legislation", "pets", "recipes"], True),
    "heldout19": (90533, "ships", ["ships", "boats", "airfare", "jobs", "wine", "bicycles"], True),
    "heldout20": (15782, "auctions", ["auctions", "books", "instruments", "wine", "autos", "pets"], True),
    # fresh held-out webs added 2026-11-27 (eighth batch) after the author had read the scores of dev
    # and heldout1-20: topics never present before (war memorial registers named on their sites in
    # other words, type foundries plainly), new names, the shapes of FRESH7 and those of FRESH8 below
    "heldout21": (70463, "memorials", ["memorials", "legislation", "events", "books", "wine", "recipes"], True),
    "heldout22": (33851, "fonts", ["fonts", "books", "instruments", "courses", "jobs", "music"], True),
    # fresh held-out webs added 2026-11-27 (ninth batch) after the author had read the scores of dev
    # and heldout1-22: topics never present before (research repositories and planning registers
    # named on their sites in other words, podcast directories plainly), each beside topics that
    # share its words; new names, the shapes of FRESH8 and those of FRESH9 below
    "heldout23": (46271, "theses", ["theses", "papers", "courses", "scholarships", "books", "jobs"], True),
    "heldout24": (82193, "podcasts", ["podcasts", "music", "events", "movies", "books", "instruments"], True),
    "heldout25": (57037, "permits", ["permits", "realestate", "legislation", "jobs", "events", "autos"], True),
    # fresh held-out webs added 2026-11-27 (tenth batch) after the author had read the scores of dev
    # and heldout1-25: topics never present before (dictionary sites named on their sites in other
    # words, campsite finders plainly), each beside topics that share its words; new names, the
    # shapes of FRESH9 but two, and those of FRESH10 below
    "heldout26": (39157, "dictionaries", ["dictionaries", "books", "courses", "papers", "jobs", "music"], True),
    "heldout27": (71671, "campsites", ["campsites", "events", "realestate", "boats", "bicycles", "pets"], True),
    # fresh held-out webs added 2026-11-27 (eleventh batch) after the author had read the scores of dev
    # and heldout1-27: topics never present before, on each of which some sites name their subject
    # plainly and others in their own words only, each beside topics that share its words and a
    # near-topic site with its own searches; new names, the shapes of FRESH10 and those of FRESH11 below
    "heldout28": (52817, "charities", ["charities", "pets", "scholarships", "events", "jobs", "books"], True),
    "heldout29": (64439, "schools", ["schools", "courses", "jobs", "scholarships", "realestate", "books"], True),
    "heldout30": (28163, "walks", ["walks", "bicycles", "events", "boats", "pets", "books"], True),
    # fresh held-out webs added 2026-11-27 (twelfth batch) after the author had read the scores of dev
    # and heldout1-30: topics never present before (the plain / own-words mix of FRESH11), a search
    # widget in an <iframe>, a search with no submit control, a scored site and another in German;
    # new names (FRESH12 below)
    "heldout31": (43787, "lyrics", ["lyrics", "music", "instruments", "events", "books", "movies"], True),
    "heldout32": (16529, "archives", ["archives", "papers", "books", "legislation", "courses", "jobs"], True),
    "heldout33": (90161, "sightings", ["sightings", "pets", "events", "boats", "bicycles", "recipes"], True),
    # fresh held-out webs added 2026-11-27 (thirteenth batch) after the author had read the scores of
    # dev and heldout1-33: topics never present before (the plain / own-words mix), a search page on
    # a sub-host, a search page linked only from the site map, a home page that is a language
    # chooser, a near-topic site whose records carry the topic's words; new names (FRESH13 below)
    "heldout34": (35107, "medicines", ["medicines", "papers", "pets", "events", "books", "recipes"], True),
    "heldout35": (80923, "maps", ["maps", "books", "bicycles", "boats", "events", "realestate"], True),
    "heldout36": (12671, "datasets", ["datasets", "papers", "legislation", "courses", "jobs", "realestate"], True),
    # fresh held-out webs added 2026-11-27 (fourteenth batch), the report webs after the development
    # rounds on heldout17-36: topics never present before, the scored sites' shapes drawn from the
    # whole range of the earlier batches in new combinations (SHAPES14 below), heldout34-36's names
    "heldout37": (61612, "companies", ["companies", "jobs", "papers", "events", "realestate", "books"], True),
    "heldout38": (36485, "specimens", ["specimens", "papers", "pets", "courses", "events", "boats"], True),
    "heldout39": (73843, "photographs", ["photographs", "books", "events", "realestate", "legislation", "bicycles"], True),
    # fresh held-out webs added 2026-11-27 (fifteenth batch) after the author had read the scores of
    # dev and heldout1-39: topics never present before, heldout37-39's construction, and on the scored
    # sites shapes no earlier web has (a "Search" page with a basic and an advanced form, a POST search
    # with a hidden CSRF token, a results page reached through a "searching..." refresh page, a cookie
    # consent wall in front of the home page) in a different combination on each web (SHAPES15 below)
    "heldout40": (58241, "buildings", ["buildings", "realestate", "legislation", "events", "books", "bicycles"], True),
    "heldout41": (19367, "newspapers", ["newspapers", "papers", "books", "events", "jobs", "recipes"], True),
    "heldout42": (84503, "finds", ["finds", "boats", "pets", "courses", "wine", "instruments"], True),
    # fresh held-out webs added 2026-11-27 (sixteenth batch) after the author had read the scores of
    # dev and heldout1-42: topics never present before, heldout40-42's construction, and on the scored
    # sites shapes no earlier web has (a one-box GET search that redirects to the query in the URL path,
    # a search whose only required field is a select of the categories, navigation only in a hamburger
    # <details> drawer, a search that answers "0 results" for words shorter than four letters) in a
    # different combination on each web (SHAPES16 below)
    "heldout43": (47711, "stamps", ["stamps", "books", "events", "papers", "wine", "bicycles"], True),
    "heldout44": (26573, "placenames", ["placenames", "realestate", "legislation", "courses", "boats", "recipes"], True),
    "heldout45": (93089, "bells", ["bells", "instruments", "music", "events", "pets", "jobs"], True),
    # fresh held-out webs added 2026-11-27 (seventeenth batch) after the author had read the scores of
    # dev and heldout1-45: topics never present before whose word is also an everyday word of pages
    # (council minutes, shipwrecks, cricket matches), heldout43-45's construction, and on the scored
    # sites shapes no earlier web has (a search form inside a declarative shadow root <template>, a
    # relative action resolved against a <base href>, fields named only by title attributes with opaque
    # names, JSON-like bracketed field names, a search form written in Welsh on an English site) in a
    # different combination on each web (SHAPES17 below)
    "heldout46": (31517, "minutes", ["minutes", "legislation", "events", "papers", "jobs", "realestate"], True),
    "heldout47": (68903, "wrecks", ["wrecks", "boats", "books", "events", "pets", "recipes"], True),
    "heldout48": (52249, "matches", ["matches", "events", "courses", "jobs", "bicycles", "wine"], True),
}
FRESH = {"heldout4", "heldout5"}
# heldout6 and heldout7 have the fresh webs' shapes and more: search pages behind menu items
# that never say "search", forms with only selects and a button, forms without an action
# (they submit to their page) or with an action in another application path, availability
# forms (dates, nights, guests), advanced-search pages linked only from a quick search's
# results page, home pages of news where the topic is named only in the title and meta
# description, select-only preference forms, booking/voucher/delivery/payment/competition
# forms, a council site and a magazine with their own searches, fillers with table or court
# booking and donation forms.
FRESH2 = {"heldout6", "heldout7"}
# heldout8 and heldout9 have the shapes of heldout6/7 (except their council and magazine) and
# more: other names for every off-topic site, portal and filler; search forms of facet check
# boxes only, of fields labelled by aria-label only, of placeholder-only fields sent by POST,
# and with the action on a search sub-host of the same site (search.NAME.test); a mega-menu
# layout (the menu folded under one button) with a locale form in a utility bar; forms that
# are not searches: shipping/fee calculators, "report a problem", polls, unsubscribe, locale
# selects, certificate orders; a public library catalogue and a university beside them.
FRESH3 = {"heldout8", "heldout9"}
# heldout10-12 have the fresh webs' page layouts, "Search this site" boxes and quick searches with
# an advanced search behind their results, and more (see _plan_traits4): the way to the search
# named in the site's own words ("Find a trial", "Browse the archive", "Explore", "Catalogue
# search"); an advanced-search page linked only from a small box on the home page; home pages
# whose news, blog archive and about links come before the way to the search (a blog archive by
# month, tag pages that robots.txt disallows); a catalogue search with a "search in" select and
# hidden fields; an ASP.NET WebForms search (POST, __VIEWSTATE, a relative action); a search page
# with a login ("sign in to save your searches") before the form and a search-alert form after it;
# robots.txt with wildcard rules, a bad-bot group and a disallowed results path (not /cgi-bin/);
# a hospital, a law firm and a tourism site with site-wide searches; other names everywhere.
FRESH4 = {"heldout10", "heldout11", "heldout12"}
FRESH4_NAMES = {
    "docs.lumen-lang.test": ("docs.tessera-lang.test", "Tessera 5 documentation"),
    "www.dailyledger.test": ("www.eveningherald.test", "The Evening Herald"),
    "www.ironworks-supply.test": ("www.keystone-hardware.test", "Keystone Hardware"),
    "forum.backyardgrowers.test": ("forum.veggiepatch.test", "Veggie Patch Forum"),
    "www.metroweather.test": ("www.clearskies-weather.test", "Clear Skies Weather"),
    "www.openlinkdirectory.test": ("www.linkatlas.test", "Link Atlas"),
    "www.webguide.test": ("www.thewebshelf.test", "The Web Shelf"),
    "www.tuesdaylinks.test": ("www.sundaylinks.test", "Sunday Links"),
}
# heldout10-12: the scored topic's disallowed search action (robots.txt names the path itself)
DISALLOWED_ACTIONS4 = ["/search/results", "/db/query.php", "/catalogue/run-search"]
# pages of heldout10-12's topic sites with a form that is not a search of the records
FRESH4_EXTRAS = {
    "trials": [
        ("Register your interest", "/volunteer-register", "menu", "volunteer"),
        ("Am I eligible?", "/eligibility", "footer", "eligibility"),
    ],
    "caselaw": [("Case alerts", "/alerts", "footer", "alert"), ("Order a transcript", "/transcripts", "menu", "transcript")],
    "museums": [("Book tickets", "/tickets", "menu", "tickets"), ("Image licensing", "/image-requests", "footer", "imagerequest")],
    "papers": [("Export citations", "/export", "footer", "export")],
}
FRESH4_COMMON_EXTRAS = [("Cookie settings", "/cookies", "footer", "cookies")]
# fillers of heldout10-12 (names no earlier web has): (name, host name, category)
FILLERS4 = [
    ("Greenway Physiotherapy", "greenwayphysio", "health"),
    ("Alder Street Surgery", "alderstreetsurgery", "health"),
    ("Sunrise Swim School", "sunriseswim", "sports"),
    ("St Columba's Church", "stcolumbas", "society"),
    ("Hollybank Infant School", "hollybankinfants", "education"),
    ("Marsh Lane Community Centre", "marshlanecentre", "society"),
    ("Pritchard Roofing", "pritchardroofing", "local"),
    ("Bluebell Florist", "bluebellflorist", "local"),
    ("The Copper Kettle Cafe", "copperkettlecafe", "local"),
    ("Fielding Accountants", "fieldingaccounts", "local"),
    ("Paws Grooming Parlour", "pawsgrooming", "local"),
    ("Kelby Cricket Club", "kelbycricket", "sports"),
    ("Harbour Sailing Club", "harboursailing", "sports"),
    ("Nadia Sorensen Ceramics", "nadiasorensen", "personal"),
    ("Grandad Joe's Railway Pages", "grandadjoesrailway", "personal"),
    ("Kelby Civic Society", "kelbycivic", "society"),
    ("The Book Group at No. 9", "bookgroupno9", "personal"),
]
FRESH4_FILLER_FORMS = {
    "copperkettlecafe": ("Book a table", "/book-a-table/", "table"),
    "sunriseswim": ("Book lessons", "/lessons/", "booking"),
    "stcolumbas": ("Give", "/give/", "donate"),
    "kelbycivic": ("Members' poll", "/poll/", "poll"),
}
# heldout13-15 have the shapes of heldout10-12 (their page layouts, robots.txt rules, result pages)
# and more (see _plan_traits5): on the home page a tabbed widget of three forms (the record search,
# a branch finder, a valuation / eligibility / report form); a listing page whose filter form
# submits to the page itself; a search page with a cookie form and a booking, event-registration or
# alert form before the search; a search whose action is on an application sub-host
# (portal.NAME.test), written in a modern app's markup; a step-one "wizard" of radio buttons only;
# site searches run by a hosted search service on search.NAME.test; branch finders that list
# branches (searchable, not of the topic); quote and price calculators, availability checks,
# viewings, event registrations, donations; a volunteer centre, a tenants' advice charity and a
# consumer magazine with their own searches; other names everywhere.
FRESH5 = {"heldout13", "heldout14", "heldout15"}
FRESH5_NAMES = {
    "docs.lumen-lang.test": ("docs.marlin-lang.test", "Marlin 2 documentation"),
    "www.dailyledger.test": ("www.northmoorgazette.test", "The Northmoor Gazette"),
    "www.ironworks-supply.test": ("www.cornerstone-diy.test", "Cornerstone DIY"),
    "forum.backyardgrowers.test": ("forum.greenfingerschat.test", "Green Fingers Chat"),
    "www.metroweather.test": ("www.fairweather-forecast.test", "Fairweather Forecast"),
    "www.openlinkdirectory.test": ("www.sitescout.test", "SiteScout"),
    "www.webguide.test": ("www.pagepilot-directory.test", "PagePilot Directory"),
    "www.tuesdaylinks.test": ("www.mondaylinkdigest.test", "Monday Link Digest"),
}
# heldout13-15: the scored topic's disallowed search action (robots.txt names the path itself)
DISALLOWED_ACTIONS5 = ["/api/search", "/listings/query.php", "/find/run"]
# heldout13-15: sub-hosts of an application that answers the record search (portal.NAME.test)
SUBHOSTS5 = ["portal", "listings", "app", "data"]
# pages of heldout13-15's topic sites with a form that is not a search of the records
FRESH5_EXTRAS = {
    "grants": [
        ("Check your eligibility", "/eligibility", "menu", "fundcheck"),
        ("Funding workshops", "/workshops", "menu", "registration"),
        ("Support our work", "/donate", "footer", "donate"),
    ],
    "scholarships": [("Open days", "/open-days", "menu", "registration"), ("Student budget calculator", "/budget", "footer", "quote")],
    "rentals": [
        ("Book a viewing", "/viewings", "menu", "viewing"),
        ("Landlords: free valuation", "/valuation", "menu", "valuation"),
        ("Affordability calculator", "/affordability", "footer", "quote"),
    ],
    "recalls": [("Report an unsafe product", "/report", "menu", "safetyreport"), ("Recall alerts", "/alerts", "footer", "alert")],
    "legislation": [("Legislation alerts", "/alerts", "footer", "alert")],
    "autos": [("Get a finance quote", "/finance-quote", "footer", "quote")],
    "events": [("Register for the open day", "/open-day", "footer", "registration")],
}
# the third tab of the home page's search widget (heldout13-15), and the form before a search
FRESH5_TAB3 = {"grants": "fundcheck", "rentals": "valuation", "recalls": "safetyreport"}
FRESH5_BESIDE = {"grants": "registration", "rentals": "viewing", "recalls": "alert"}
# fillers of heldout13-15 (names no earlier web has): (name, host name, category)
FILLERS5 = [
    ("Moorside Dental Practice", "moorsidedental", "health"),
    ("Hawthorn Family Practice", "hawthornpractice", "health"),
    ("Little Acorns Nursery", "littleacornsnursery", "education"),
    ("St Oswald's Parish Church", "stoswalds", "society"),
    ("Northmoor Amateur Dramatics", "northmoordrama", "society"),
    ("Greenbank Allotment Society", "greenbankallotments", "society"),
    ("Swift Removals", "swiftremovals", "local"),
    ("The Old Barn Wedding Venue", "oldbarnweddings", "local"),
    ("Parkside Garage", "parksidegarage", "local"),
    ("Lotus Thai Kitchen", "lotusthaikitchen", "local"),
    ("Brightwell Window Cleaning", "brightwellwindows", "local"),
    ("Northmoor Harriers", "northmoorharriers", "sports"),
    ("Kelby Bowls Club", "kelbybowls", "sports"),
    ("Rosa Lindqvist Photography", "rosalindqvist", "personal"),
    ("Uncle Ted's Model Railway", "uncletedrailway", "personal"),
    ("Kelby Food Share", "kelbyfoodshare", "society"),
    ("Purl Together Knitters", "purltogether", "personal"),
]
FRESH5_FILLER_FORMS = {
    "swiftremovals": ("Get a quote", "/quote/", "quote"),
    "oldbarnweddings": ("Check availability", "/availability/", "availability"),
    "northmoordrama": ("Auditions", "/auditions/", "registration"),
    "kelbyfoodshare": ("Donate", "/donate/", "donate"),
    "parksidegarage": ("Book a service", "/book/", "booking"),
    "lotusthaikitchen": ("Book a table", "/book-a-table/", "table"),
}
# heldout16/17 have the shapes of heldout13-15 (their layouts, branch finders, hosted site searches,
# off-topic volunteer centre, tenants' charity and consumer magazine) and more (see _plan_traits6):
# topic sites that name their subject in other words than the topic's name; a record search in a
# <dialog> at the end of the home page (heldout16) or in every page's footer (heldout17); a search
# page linked from the footer only; a search form at the bottom of a long listing; a modern
# markup (a <search> element, floating labels after their inputs, aria-labelledby, names like
# filters[keywords], a combobox with a datalist, an icon button); a Drupal Views exposed form
# (search_api_fulltext, "- Any -" = All, form_build_id, "Apply"); on every topic site a "Was this
# page helpful?" form (GET, radio buttons); supplier registration and arrangement requests shaped
# like the record search; other names for the portals, the five big off-topic sites and the fillers.
FRESH6 = {"heldout16", "heldout17"}
FRESH6_NAMES = {
    "docs.lumen-lang.test": ("docs.corvid-lang.test", "Corvid 4 documentation"),
    "www.dailyledger.test": ("www.westridingpost.test", "The West Riding Post"),
    "www.ironworks-supply.test": ("www.toolbarn-diy.test", "Toolbarn DIY"),
    "forum.backyardgrowers.test": ("forum.plotholders.test", "Plotholders Forum"),
    "www.metroweather.test": ("www.skylinemet.test", "Skyline Met"),
    "www.openlinkdirectory.test": ("www.weblinkatlas-uk.test", "UK Web Atlas"),
    "www.webguide.test": ("www.goodsites-guide.test", "Good Sites Guide"),
    "www.tuesdaylinks.test": ("www.weekendlinkroundup.test", "Weekend Link Roundup"),
}
# heldout13-15's volunteer centre, tenants' charity and consumer magazine under other names
FRESH6_OFFTOPIC_NAMES = {
    "www.northmoor-volunteers.test": ("www.valleyvolunteering.test", "Valley Volunteering Hub"),
    "www.fairrent-advice.test": ("www.rentright-advice.test", "RentRight Advice"),
    "www.consumerwatch-mag.test": ("www.shoppers-verdict.test", "Shopper's Verdict"),
}
FRESH6_EXTRAS = {
    "tenders": [("Register as a supplier", "/suppliers/register", "menu", "supplier"), ("Contract alerts", "/alerts", "footer", "alert")],
    "sheetmusic": [("Arrangement service", "/arrangements", "menu", "arrangement"), ("Gift vouchers", "/vouchers", "footer", "voucher")],
}
# the form that comes before the record search on a search page of heldout16/17
FRESH6_BESIDE = {"tenders": "supplier", "sheetmusic": "arrangement"}
FILLERS6 = [
    ("Birchwood Veterinary Surgery", "birchwoodvets", "health"),
    ("Calder Valley Osteopaths", "caldervalleyosteo", "health"),
    ("Ashgrove Primary School", "ashgroveprimary", "education"),
    ("St Wilfrid's Church", "stwilfrids", "society"),
    ("Kelby Camera Club", "kelbycameraclub", "society"),
    ("Northmoor Repair Cafe", "northmoorrepaircafe", "society"),
    ("Hollins Plumbing & Heating", "hollinsplumbing", "local"),
    ("The Bay Tree Deli", "baytreedeli", "local"),
    ("Sharp Cuts Barbers", "sharpcutsbarbers", "local"),
    ("Meadowside Holiday Cottages", "meadowsidecottages", "local"),
    ("Greaves & Daughter Joinery", "greavesjoinery", "local"),
    ("Kelby Tennis Club", "kelbytennis", "sports"),
    ("Northmoor Wheelers", "northmoorwheelers", "sports"),
    ("Priya Sandhu Illustration", "priyasandhu", "personal"),
    ("Grandad Jim's Allotment Diary", "grandadjimsplot", "personal"),
    ("Kelby Community Larder", "kelbylarder", "society"),
    ("Moorland Ramblers", "moorlandramblers", "personal"),
]
FRESH6_FILLER_FORMS = {
    "hollinsplumbing": ("Get a quote", "/quote/", "quote"),
    "meadowsidecottages": ("Check availability", "/availability/", "availability"),
    "kelbycameraclub": ("Join a workshop", "/workshops/", "registration"),
    "kelbylarder": ("Donate", "/donate/", "donate"),
    "sharpcutsbarbers": ("Book an appointment", "/book/", "booking"),
    "baytreedeli": ("Book a table", "/book-a-table/", "table"),
}
# heldout18-20 (seventh batch) have the shapes of heldout16/17 (and so of heldout13-15) and more (see
# _plan_traits7): on the home page a JavaScript search app whose form is only in a <noscript>
# fallback (with a schema.org SearchAction in JSON-LD on heldout19/20); a search page reached from the
# menu by a "Browse ..." link only, holding a GET form of many selects (category, type, band, a date
# range of day/month/year selects, sort, results per page) beside one text box; a search page whose
# form posts to another registered domain (the search platform of a vendor serving many sites, a
# tenant path per site); a search page linked from its hub by an "Advanced" link only, with a form
# shaped like the search after it (place a notice, register a vessel, request a valuation); at depth
# 3 a terms-of-use page ("Before you search") with an accept form (GET, to the search page) and a
# text link, in front of the search page; other names for the portals, off-topic sites and fillers.
FRESH7 = {"heldout18", "heldout19", "heldout20"}
FRESH7_NAMES = {
    "docs.lumen-lang.test": ("docs.heron-lang.test", "Heron 6 documentation"),
    "www.dailyledger.test": ("www.dalesobserver.test", "The Dales Observer"),
    "www.ironworks-supply.test": ("www.benchmark-tools.test", "Benchmark Tools"),
    "forum.backyardgrowers.test": ("forum.seedswappers.test", "Seed Swappers Forum"),
    "www.metroweather.test": ("www.cloudbase-weather.test", "Cloudbase Weather"),
    "www.openlinkdirectory.test": ("www.linkharbour.test", "Link Harbour"),
    "www.webguide.test": ("www.handpicked-web.test", "Handpicked Web"),
    "www.tuesdaylinks.test": ("www.thursdaylinklist.test", "Thursday Link List"),
}
# heldout13-15's volunteer centre, tenants' charity and consumer magazine under other names again
FRESH7_OFFTOPIC_NAMES = {
    "www.northmoor-volunteers.test": ("www.helpinghands-kelby.test", "Helping Hands Kelby"),
    "www.fairrent-advice.test": ("www.homesafe-advice.test", "HomeSafe Advice"),
    "www.consumerwatch-mag.test": ("www.buyersguide-monthly.test", "Buyer's Guide Monthly"),
}
# the renamed sites' own words for themselves (the generator writes the earlier names in their text)
FRESH7_WORDS = [
    ("Lumen", "Heron"),
    ("Daily Ledger", "Dales Observer"),
    ("Ledger", "Observer"),
    ("Ironworks Supply Co.", "Benchmark Tools"),
    ("Ironworks", "Benchmark"),
    ("Backyard Growers", "Seed Swappers"),
    ("Metro Weather", "Cloudbase Weather"),
    ("Tuesday", "Thursday"),
]
FRESH7_EXTRAS = {
    "obituaries": [("Place a notice", "/place-a-notice", "menu", "notice"), ("Leave a tribute", "/tributes", "footer", "tribute")],
    "ships": [
        ("Register a vessel", "/registration/apply", "menu", "vesselreg"),
        ("Order a transcript", "/transcripts", "footer", "transcriptorder"),
    ],
    "auctions": [("Valuations", "/valuations", "menu", "appraisal"), ("Commission bids", "/commission-bids", "footer", "bid")],
}
# the form shaped like the search that follows it on the "Advanced" page of heldout18-20
FRESH7_BESIDE = {"obituaries": "notice", "ships": "vesselreg", "auctions": "appraisal"}
# the search platforms (another registered domain) that run some sites' record searches: one per
# scored topic, and a shop platform for the other topics' sites; each site has its own tenant path
FRESH7_VENDORS = {
    "obituaries": "www.noticeboard-platform.test",
    "ships": "registry.seacloud-systems.test",
    "auctions": "bid.salecatalogue-live.test",
}
FRESH7_SHOP_VENDOR = "app.storefront-cloud.test"
FILLERS7 = [
    ("Oakfield Chiropractic", "oakfieldchiro", "health"),
    ("Riverbank Medical Practice", "riverbankmedical", "health"),
    ("Kelby Montessori", "kelbymontessori", "education"),
    ("St Aidan's Chapel", "staidanschapel", "society"),
    ("Northmoor Bell Ringers", "northmoorbells", "society"),
    ("Kelby Men's Shed", "kelbymensshed", "society"),
    ("Thornton Electrical", "thorntonelectrical", "local"),
    ("The Olive Branch Bistro", "olivebranchbistro", "local"),
    ("Snip & Style Salon", "snipandstyle", "local"),
    ("Heather View Glamping", "heatherviewglamping", "local"),
    ("Marsden Landscaping", "marsdenlandscaping", "local"),
    ("Kelby Badminton Club", "kelbybadminton", "sports"),
    ("Northmoor Fell Runners", "northmoorfellrunners", "sports"),
    ("Anya Kowalska Pottery", "anyakowalska", "personal"),
    ("Uncle Bill's Steam Pages", "unclebillsteam", "personal"),
    ("Kelby Baby Bank", "kelbybabybank", "society"),
    ("Dales Birdwatchers", "dalesbirdwatchers", "personal"),
]
FRESH7_FILLER_FORMS = {
    "thorntonelectrical": ("Get a quote", "/quote/", "quote"),
    "heatherviewglamping": ("Check availability", "/availability/", "availability"),
    "northmoorbells": ("Learn to ring", "/learn/", "registration"),
    "kelbybabybank": ("Donate", "/donate/", "donate"),
    "snipandstyle": ("Book an appointment", "/book/", "booking"),
    "olivebranchbistro": ("Book a table", "/book-a-table/", "table"),
}
# heldout21/22 (eighth batch) have the shapes of heldout18-20 (FRESH7) and one more: on the depth-2
# search page the search form's own action is a "save this search" POST (with a CSRF token), and its
# first (default) submit button sends the search elsewhere: <button formaction=... formmethod="get">.
# Other names again for the portals, off-topic sites and fillers.
FRESH8 = {"heldout21", "heldout22"}
FRESH8_NAMES = {
    "docs.lumen-lang.test": ("docs.kestrel-lang.test", "Kestrel 4 documentation"),
    "www.dailyledger.test": ("www.pennineecho.test", "The Pennine Echo"),
    "www.ironworks-supply.test": ("www.trademate-supplies.test", "Trademate Supplies"),
    "forum.backyardgrowers.test": ("forum.vegplotters.test", "Veg Plotters Forum"),
    "www.metroweather.test": ("www.windvane-forecast.test", "Windvane Forecast"),
    "www.openlinkdirectory.test": ("www.linkcompass.test", "Link Compass"),
    "www.webguide.test": ("www.sitesworthseeing.test", "Sites Worth Seeing"),
    "www.tuesdaylinks.test": ("www.saturdaylinkbag.test", "Saturday Link Bag"),
}
FRESH8_OFFTOPIC_NAMES = {
    "www.northmoor-volunteers.test": ("www.lendahand-dales.test", "Lend a Hand Dales"),
    "www.fairrent-advice.test": ("www.tenantline-advice.test", "Tenantline Advice"),
    "www.consumerwatch-mag.test": ("www.valueverdict-mag.test", "Value Verdict Magazine"),
}
FRESH8_WORDS = [
    ("Lumen", "Kestrel"),
    ("Daily Ledger", "Pennine Echo"),
    ("Ledger", "Echo"),
    ("Ironworks Supply Co.", "Trademate Supplies"),
    ("Ironworks", "Trademate"),
    ("Backyard Growers", "Veg Plotters"),
    ("Metro Weather", "Windvane Forecast"),
    ("Tuesday", "Saturday"),
]
FILLERS8 = [
    ("Brookside Osteopaths", "brooksideosteo"),
    ("Hillcrest Dental Care", "hillcrestdental"),
    ("Bluebell Day Nursery", "bluebelldaynursery"),
    ("St Oswald's Church", "stoswaldschurch"),
    ("Kelby Choral Society", "kelbychoral"),
    ("Kelby Tool Library", "kelbytoollibrary"),
    ("Priestley Roofing", "priestleyroofing"),
    ("The Copper Kettle Tearoom", "copperkettletearoom"),
    ("Fringe Benefits Hair", "fringebenefitshair"),
    ("Moorland Shepherd Huts", "moorlandshepherdhuts"),
    ("Greenway Tree Surgeons", "greenwaytrees"),
    ("Kelby Table Tennis Club", "kelbytabletennis"),
    ("Airedale Canoe Club", "airedalecanoe"),
    ("Ruth Okafor Illustration", "ruthokafor"),
    ("Grandad Ted's Model Railway", "grandadtedsrailway"),
    ("Kelby Food Larder", "kelbyfoodlarder"),
    ("Dales Moth Recorders", "dalesmothrecorders"),
]
FILLERS8 = [(n, h, c) for (n, h), c in zip(FILLERS8, [f[2] for f in FILLERS7], strict=True)]  # the categories of FILLERS7
FRESH8_FILLER_FORMS = {
    "priestleyroofing": ("Get a quote", "/quote/", "quote"),
    "moorlandshepherdhuts": ("Check availability", "/availability/", "availability"),
    "kelbychoral": ("Join a workshop", "/workshops/", "registration"),
    "kelbyfoodlarder": ("Donate", "/donate/", "donate"),
    "fringebenefitshair": ("Book an appointment", "/book/", "booking"),
    "copperkettletearoom": ("Book a table", "/book-a-table/", "table"),
}
# heldout23-25 (ninth batch) have the shapes of heldout21/22 (FRESH8) except two, and more:
# - at depth 1 the menu's way to the search page is an icon: a link with an <svg> and an
#   aria-label (or an image with an empty alt), no text (on the scored topic's site in place of the
#   "Browse ..." link; the page holds an ordinary search form);
# - at depth 2 (in place of the <button formaction> search) the search's <form> element is empty
#   but for a hidden field, placed before a table; its text boxes, selects and submit button are
#   outside it, tied to it by the HTML form="ID" attribute, as pages whose layout table cannot sit
#   inside a form write it;
# - some searches refuse an empty query ("Please enter a search term", no records) where the
#   earlier webs list everything: on three of the scored topic's five sites and at random elsewhere;
# - forms that are not searches shaped like the search: depositing a thesis, submitting a podcast's
#   feed, commenting on a planning application (all POST);
# other names again for the portals, off-topic sites and fillers.
FRESH9 = {"heldout23", "heldout24", "heldout25"}
FRESH9_NAMES = {
    "docs.lumen-lang.test": ("docs.plover-lang.test", "Plover 2 documentation"),
    "www.dailyledger.test": ("www.calderchronicle.test", "The Calder Chronicle"),
    "www.ironworks-supply.test": ("www.handyman-depot.test", "Handyman Depot"),
    "forum.backyardgrowers.test": ("forum.allotmentchat.test", "Allotment Chat Forum"),
    "www.metroweather.test": ("www.raingauge-weather.test", "Raingauge Weather"),
    "www.openlinkdirectory.test": ("www.linklantern.test", "Link Lantern"),
    "www.webguide.test": ("www.curatedcorners.test", "Curated Corners"),
    "www.tuesdaylinks.test": ("www.mondaylinkmix.test", "Monday Link Mix"),
}
FRESH9_OFFTOPIC_NAMES = {
    "www.northmoor-volunteers.test": ("www.pitchin-calder.test", "Pitch In Calder"),
    "www.fairrent-advice.test": ("www.tenancyhelp-calder.test", "Tenancy Help Calder"),
    "www.consumerwatch-mag.test": ("www.shopsmart-review.test", "ShopSmart Review"),
}
FRESH9_WORDS = [
    ("Lumen", "Plover"),
    ("Daily Ledger", "Calder Chronicle"),
    ("Ledger", "Chronicle"),
    ("Ironworks Supply Co.", "Handyman Depot"),
    ("Ironworks", "Handyman"),
    ("Backyard Growers", "Allotment Chat"),
    ("Metro Weather", "Raingauge Weather"),
    ("Tuesday", "Monday"),
]
FILLERS9 = [
    ("Calder Physiotherapy", "calderphysio"),
    ("Moorview Opticians", "moorviewopticians"),
    ("Little Acorns Playgroup", "littleacornsplay"),
    ("Holy Trinity Kelby", "holytrinitykelby"),
    ("Kelby Brass Band", "kelbybrassband"),
    ("Kelby Repair Cafe", "kelbyrepaircafe"),
    ("Haigh & Sons Plumbing", "haighplumbing"),
    ("The Wool Barn Cafe", "woolbarncafe"),
    ("Shear Brilliance Barbers", "shearbrilliance"),
    ("Pennine Yurts", "pennineyurts"),
    ("Calder Valley Fencing", "caldervalleyfencing"),
    ("Calder Crown Green Bowls", "caldercrowngreen"),
    ("Calder Rowing Club", "calderrowing"),
    ("Imogen Dunn Ceramics", "imogendunn"),
    ("Auntie Val's Recipe Tin", "auntievalsrecipetin"),
    ("Kelby Community Fridge", "kelbycommunityfridge"),
    ("Calder Bat Group", "calderbatgroup"),
]
FILLERS9 = [(n, h, c) for (n, h), c in zip(FILLERS9, [f[2] for f in FILLERS7], strict=True)]  # the categories of FILLERS7
FRESH9_FILLER_FORMS = {
    "haighplumbing": ("Get a quote", "/quote/", "quote"),
    "pennineyurts": ("Check availability", "/availability/", "availability"),
    "kelbybrassband": ("Join the training band", "/training-band/", "registration"),
    "kelbycommunityfridge": ("Donate", "/donate/", "donate"),
    "shearbrilliance": ("Book an appointment", "/book/", "booking"),
    "woolbarncafe": ("Book a table", "/book-a-table/", "table"),
}
# pages of heldout23-25's scored sites with a form that is not a search, shaped like it
FRESH9_EXTRAS = {
    "theses": [("Deposit your research", "/deposit", "menu", "deposit")],
    "podcasts": [("Submit a podcast", "/submit-podcast", "menu", "podsubmit")],
    "permits": [("Comment on an application", "/comment-on-an-application", "footer", "objection")],
}
FRESH9_BESIDE = {"theses": "deposit", "podcasts": "podsubmit", "permits": "objection"}
# heldout26/27 (tenth batch) have the shapes of heldout23-25 (FRESH9) except two, and more:
# - at depth 1 the only way to the search page is an image map: the menu's entry is a picture
#   (<img usemap>) whose <map> holds an <area href> named by its alt text, no <a> to the page
#   anywhere on the site (as sites built with image-sliced navigation bars write it);
# - at depth 2 (in place of the form="ID" search) a search whose only submit control is an
#   <input type="image">, its query box an <input type="search"> with a <datalist> of suggestions,
#   its category a group of radio buttons ("Any" checked), its second filter check boxes, and a
#   "match" radio group (starts with, contains, ...);
# - forms that are not searches shaped like the search: suggesting a word for the lexicon,
#   reviewing a campsite (both POST);
# other names again for the portals, off-topic sites and fillers.
FRESH10 = {"heldout26", "heldout27"}
FRESH10_NAMES = {
    "docs.lumen-lang.test": ("docs.tern-lang.test", "Tern 1.8 documentation"),
    "www.dailyledger.test": ("www.harbourgazette.test", "The Harbour Gazette"),
    "www.ironworks-supply.test": ("www.toolshed-direct.test", "Toolshed Direct"),
    "forum.backyardgrowers.test": ("forum.vegpatchtalk.test", "Veg Patch Talk Forum"),
    "www.metroweather.test": ("www.fellside-forecast.test", "Fellside Forecast"),
    "www.openlinkdirectory.test": ("www.signpostdir.test", "Signpost Directory"),
    "www.webguide.test": ("www.pickoftheweb.test", "Pick of the Web"),
    "www.tuesdaylinks.test": ("www.fridayfinds.test", "Friday Finds"),
}
FRESH10_OFFTOPIC_NAMES = {
    "www.northmoor-volunteers.test": ("www.eskby-volunteer-hub.test", "Eskby Volunteer Hub"),
    "www.fairrent-advice.test": ("www.renterscorner-eskby.test", "Renters' Corner Eskby"),
    "www.consumerwatch-mag.test": ("www.bestbuyverdict.test", "Best Buy Verdict"),
}
FRESH10_WORDS = [
    ("Lumen", "Tern"),
    ("Daily Ledger", "Harbour Gazette"),
    ("Ledger", "Gazette"),
    ("Ironworks Supply Co.", "Toolshed Direct"),
    ("Ironworks", "Toolshed"),
    ("Backyard Growers", "Veg Patch Talk"),
    ("Metro Weather", "Fellside Forecast"),
    ("Tuesday", "Friday"),
]
FILLERS10 = [
    ("Harbourside Dental Care", "harboursidedental"),
    ("Saltmarsh Yoga", "saltmarshyoga"),
    ("Kittiwake Nursery", "kittiwakenursery"),
    ("St Bride's Church Eskby", "stbrideseskby"),
    ("Eskby Male Voice Choir", "eskbychoir"),
    ("Eskby Men's Shed", "eskbymensshed"),
    ("Pickering & Lowe Electricians", "pickeringlowe"),
    ("The Net Loft Cafe", "netloftcafe"),
    ("Tides Hair Studio", "tideshair"),
    ("Gull Rock Holiday Cottages", "gullrockcottages"),
    ("Eskby Roofing", "eskbyroofing"),
    ("Eskby Bowls Club", "eskbybowls"),
    ("Eskby Sea Scouts", "eskbyseascouts"),
    ("Rhoda Crane Pottery", "rhodacrane"),
    ("Grandad Ted's Pickles", "grandadtedspickles"),
    ("Eskby Food Bank", "eskbyfoodbank"),
    ("Eskby Seal Watch", "eskbysealwatch"),
]
FILLERS10 = [(n, h, c) for (n, h), c in zip(FILLERS10, [f[2] for f in FILLERS7], strict=True)]  # the categories of FILLERS7
FRESH10_FILLER_FORMS = {
    "pickeringlowe": ("Get a quote", "/quote/", "quote"),
    "gullrockcottages": ("Check availability", "/availability/", "availability"),
    "eskbychoir": ("Join the choir", "/join/", "registration"),
    "eskbyfoodbank": ("Donate", "/donate/", "donate"),
    "tideshair": ("Book an appointment", "/book/", "booking"),
    "netloftcafe": ("Book a table", "/book-a-table/", "table"),
}
# pages of heldout26/27's scored sites with a form that is not a search, shaped like it
FRESH10_EXTRAS = {
    "dictionaries": [("Suggest a word", "/suggest-a-word", "menu", "suggestword")],
    "campsites": [("Review a campsite", "/write-a-review", "footer", "campreview")],
}
FRESH10_BESIDE = {"dictionaries": "suggestword", "campsites": "campreview"}
# heldout28-30 (eleventh batch) have the shapes of heldout26/27 (FRESH10), and more:
# - on each scored topic some sites name their subject plainly (name, title, tagline) and others in
#   their own words only (see `plain_word` in topics.py), as the real web mixes them;
# - a near-topic site in place of the consumer magazine: a site about the topic's world whose own
#   searches are over other records (fundraising pages, tutors, walking holidays), with a page that
#   names the topic plainly and lists a few of its records, with no search of them;
# - forms that are not searches shaped like the search: reporting a concern about a charity,
#   applying for a school place (preferences chosen from a select of schools), reporting a path
#   problem on a route (all POST);
# other names again for the portals, off-topic sites and fillers.
FRESH11 = {"heldout28", "heldout29", "heldout30"}
FRESH11_NAMES = {
    "docs.lumen-lang.test": ("docs.wren-lang.test", "Wren 2.4 documentation"),
    "www.dailyledger.test": ("www.ravensbyherald.test", "The Ravensby Herald"),
    "www.ironworks-supply.test": ("www.fixitdepot.test", "Fix-It Depot"),
    "forum.backyardgrowers.test": ("forum.plotandpot.test", "Plot and Pot Forum"),
    "www.metroweather.test": ("www.ravensbyskies.test", "Ravensby Skies"),
    "www.openlinkdirectory.test": ("www.northernlinkbook.test", "Northern Link Book"),
    "www.webguide.test": ("www.curiocabinet-links.test", "Curio Cabinet Links"),
    "www.tuesdaylinks.test": ("www.wednesdaywebnotes.test", "Wednesday Web Notes"),
}
FRESH11_OFFTOPIC_NAMES = {
    "www.northmoor-volunteers.test": ("www.ravensby-cvs.test", "Ravensby Council for Voluntary Service"),
    "www.fairrent-advice.test": ("www.ravensby-renters.test", "Ravensby Renters' Advice"),
}
FRESH11_WORDS = [
    ("Lumen", "Wren"),
    ("Daily Ledger", "Ravensby Herald"),
    ("Ledger", "Herald"),
    ("Ironworks Supply Co.", "Fix-It Depot"),
    ("Ironworks", "Fix-It"),
    ("Backyard Growers", "Plot and Pot"),
    ("Metro Weather", "Ravensby Skies"),
    ("Tuesday", "Wednesday"),
]
FILLERS11 = [
    ("Ravensby Physiotherapy", "ravensbyphysio"),
    ("Quarry Lane Surgery", "quarrylanesurgery"),
    ("Little Acorns Playgroup", "littleacornsravensby"),
    ("St Wilfrid's Ravensby", "stwilfridsravensby"),
    ("Ravensby Brass Band", "ravensbybrass"),
    ("Ravensby Repair Cafe", "ravensbyrepaircafe"),
    ("Greaves & Sons Plumbing", "greavesplumbing"),
    ("The Mill Race Tearoom", "millracetearoom"),
    ("Fringe Benefits Barbers", "fringebenefitsbarbers"),
    ("Ravensby Mill Holiday Flats", "ravensbymillflats"),
    ("Holt Tree Surgery", "holttreesurgery"),
    ("Ravensby Cricket Club", "ravensbycricket"),
    ("Ravensby Harriers", "ravensbyharriers"),
    ("Mags Oduya Illustration", "magsoduya"),
    ("Old Ravensby in Pictures", "oldravensbypictures"),
    ("Ravensby Community Pantry", "ravensbypantry"),
    ("Ravensby Astronomers", "ravensbyastronomers"),
]
FILLERS11 = [(n, h, c) for (n, h), c in zip(FILLERS11, [f[2] for f in FILLERS7], strict=True)]  # the categories of FILLERS7
FRESH11_FILLER_FORMS = {
    "greavesplumbing": ("Get a quote", "/quote/", "quote"),
    "ravensbymillflats": ("Check availability", "/availability/", "availability"),
    "ravensbybrass": ("Join the band", "/join/", "registration"),
    "ravensbypantry": ("Donate", "/donate/", "donate"),
    "fringebenefitsbarbers": ("Book an appointment", "/book/", "booking"),
    "millracetearoom": ("Book a table", "/book-a-table/", "table"),
}
# pages of heldout28-30's scored sites with a form that is not a search, shaped like it
FRESH11_EXTRAS = {
    "charities": [("Report a concern", "/report-a-concern", "footer", "concern")],
    "schools": [("Apply for a place", "/apply-for-a-place", "menu", "placeapply")],
    "walks": [("Report a path problem", "/report-a-problem-on-a-path", "footer", "pathreport")],
}
FRESH11_BESIDE = {"charities": "concern", "schools": "placeapply", "walks": "pathreport"}
# heldout28-30's near-topic site: (host, name, its records' topic, record search path, what a
# record is, its records' words, a page naming the scored topic plainly)
NEAR11 = {
    "charities": {
        "host": "www.kelbygives.test",
        "name": "Kelby Gives",
        "topic": "fundraisers",
        "tagline": "Raise money for the charity you love: start a fundraising page or sponsor a friend.",
        "search_path": "/fundraisers/find",
        "search_title": "Find a fundraiser",
        "field": ("who", "Fundraiser's name or event"),
        "select": ("Event", ["Sponsored walk", "Half marathon", "Bake sale", "Skydive", "Swimathon", "Cycle ride"]),
        "noun": "fundraiser",
        "plural": "fundraisers",
        "about_path": "/charities-we-support/",
        "about_title": "Charities we support",
        "about_text": "Every registered charity in the north can receive donations through Kelby Gives. Charities raising money here this month:",
        "beside": ("Sponsor a fundraiser", "pledge"),
    },
    "schools": {
        "host": "www.brightsparks-tutors.test",
        "name": "Bright Sparks Tutors",
        "topic": "tutors",
        "tagline": "Tutors for pupils of every school in Kelby and Northmoor: SATs, 11+, GCSE and A level.",
        "search_path": "/tutors/search",
        "search_title": "Find a tutor",
        "field": ("postcode", "Your postcode"),
        "select": ("Subject", ["Maths", "English", "Science", "French", "11+ preparation", "Music"]),
        "noun": "tutor",
        "plural": "tutors",
        "about_path": "/schools-we-cover/",
        "about_title": "Schools we cover",
        "about_text": "Our tutors know the syllabus of every local school. Schools our pupils come from:",
        "beside": ("Book a free assessment", "tutorbook"),
    },
    "walks": {
        "host": "www.footloose-holidays.test",
        "name": "Footloose Walking Holidays",
        "topic": "holidays",
        "tagline": "Self-guided walking holidays in the Dales, on the moors and along the coast: we carry your bags.",
        "search_path": "/holidays/search",
        "search_title": "Find a holiday",
        "field": ("where", "Where to"),
        "select": ("Grade", ["Easy", "Moderate", "Challenging", "Strenuous"]),
        "noun": "holiday",
        "plural": "holidays",
        "about_path": "/free-walks/",
        "about_title": "Free walks to try",
        "about_text": "Not ready for a week away? Try one of these free day walks, with maps and directions, from our guides:",
        "beside": ("Send an enquiry", "holidayenquiry"),
    },
}
# heldout31-33 (twelfth batch) have the shapes of heldout28-30 (FRESH11: the plain / own-words mix,
# the near-topic site, the noscript, "Advanced" and terms-page constructions), and more:
# - a search widget in an <iframe> on the home page (depth 1, in place of the image-map link): the
#   search page is a bare widget document (the form with target="_top"), linked by no <a> or <area>
#   anywhere on its site, only embedded by the home page's <iframe src>, as catalogue and booking
#   vendors' widgets are embedded;
# - a search form with no submit control (depth 2, in place of the image-button search): one text box
#   (a form with one text field is submitted by pressing Enter), selects and a hidden field, and a
#   "Search" link whose href is javascript: (it calls the form's submit()), as older sites write it;
# - on each web one of the five scored sites (never the "Advanced" one) and one other topic's site
#   written in German: name, menus, headings, labels, buttons, result pages (`<html lang="de">`);
#   the records keep their English keywords (the topic's word);
# other names again for the portals, off-topic sites and fillers.
FRESH12 = {"heldout31", "heldout32", "heldout33"}
FRESH12_NAMES = {
    "docs.lumen-lang.test": ("docs.puffin-lang.test", "Puffin 3.1 documentation"),
    "www.dailyledger.test": ("www.thornbyobserver.test", "The Thornby Observer"),
    "www.ironworks-supply.test": ("www.benchmark-hardware.test", "Benchmark Hardware"),
    "forum.backyardgrowers.test": ("forum.seedtrayswap.test", "Seed Tray Swap Forum"),
    "www.metroweather.test": ("www.thornbyweatherdesk.test", "Thornby Weather Desk"),
    "www.openlinkdirectory.test": ("www.waymarkdirectory.test", "Waymark Directory"),
    "www.webguide.test": ("www.goodfinds-index.test", "Good Finds Index"),
    "www.tuesdaylinks.test": ("www.thursdayclippings.test", "Thursday Clippings"),
}
FRESH12_OFFTOPIC_NAMES = {
    "www.northmoor-volunteers.test": ("www.thornby-volunteering.test", "Thornby Volunteering"),
    "www.fairrent-advice.test": ("www.thornby-tenants.test", "Thornby Tenants' Union"),
}
FRESH12_WORDS = [
    ("Lumen", "Puffin"),
    ("Daily Ledger", "Thornby Observer"),
    ("Ledger", "Observer"),
    ("Ironworks Supply Co.", "Benchmark Hardware"),
    ("Ironworks", "Benchmark"),
    ("Backyard Growers", "Seed Tray Swap"),
    ("Metro Weather", "Thornby Weather Desk"),
    ("Tuesday", "Thursday"),
]
FILLERS12 = [
    ("Thornby Osteopaths", "thornbyosteopaths"),
    ("Station Road Dental", "stationroaddental"),
    ("Busy Bees Nursery Thornby", "busybeesthornby"),
    ("St Oswald's Thornby", "stoswaldsthornby"),
    ("Thornby Male Voice Choir", "thornbychoir"),
    ("Thornby Community Shed", "thornbyshed"),
    ("Aldred Roofing", "aldredroofing"),
    ("The Copper Kettle Cafe", "copperkettlethornby"),
    ("Shear Genius Hair", "sheargeniushair"),
    ("Thornby Lock Cottages", "thornbylockcottages"),
    ("Pike & Daughter Gardens", "pikegardens"),
    ("Thornby Bowls Club", "thornbybowls"),
    ("Thornby Striders", "thornbystriders"),
    ("Ruth Adeyemi Ceramics", "ruthadeyemiceramics"),
    ("Thornby Trams Remembered", "thornbytrams"),
    ("Thornby Community Fridge", "thornbyfridge"),
    ("Thornby Camera Society", "thornbycameras"),
]
FILLERS12 = [(n, h, c) for (n, h), c in zip(FILLERS12, [f[2] for f in FILLERS7], strict=True)]  # the categories of FILLERS7
FRESH12_FILLER_FORMS = {
    "aldredroofing": ("Get a quote", "/quote/", "quote"),
    "thornbylockcottages": ("Check availability", "/availability/", "availability"),
    "thornbychoir": ("Join the choir", "/join/", "registration"),
    "thornbyfridge": ("Donate", "/donate/", "donate"),
    "sheargeniushair": ("Book an appointment", "/book/", "booking"),
    "copperkettlethornby": ("Book a table", "/book-a-table/", "table"),
}
# pages of heldout31-33's scored sites with a form that is not a search, shaped like it
FRESH12_EXTRAS = {
    "lyrics": [("Send us a song", "/send-us-a-song", "footer", "lyricsubmit")],
    "archives": [("Order copies", "/order-copies", "menu", "copyorder")],
    "sightings": [("Send in a record", "/send-in-a-record", "menu", "sightingsubmit")],
}
FRESH12_BESIDE = {"lyrics": "lyricsubmit", "archives": "copyorder", "sightings": "sightingsubmit"}
# one site of another topic of each web is German too: (topic, name, host)
GERMAN12_OTHER = {
    "heldout31": ("music", "Plattenkiste Hamburg", "plattenkiste-hamburg"),
    "heldout32": ("books", "Antiquariat am Markt", "antiquariat-am-markt"),
    "heldout33": ("pets", "Tierheim Friesland", "tierheim-friesland"),
}
NEAR12 = {
    "lyrics": {
        "host": "www.singstar-karaoke-hire.test",
        "name": "Singstar Karaoke Hire",
        "topic": "karaoke",
        "tagline": "Karaoke machines for parties and pubs, with the lyrics on screen for 40,000 songs.",
        "search_path": "/songs/search",
        "search_title": "Find a karaoke song",
        "field": ("song", "Song or artist"),
        "select": ("Decade", ["1960s", "1970s", "1980s", "1990s", "2000s", "2010s"]),
        "noun": "karaoke track",
        "plural": "karaoke tracks",
        "about_path": "/lyrics-on-screen/",
        "about_title": "Lyrics on screen",
        "about_text": "Every track on our machines shows the lyrics on screen as you sing. Some of the song lyrics our customers ask for most:",
        "beside": ("Book a machine", "hirebook"),
    },
    "archives": {
        "host": "www.thornbyhistorysociety.test",
        "name": "Thornby Local History Society",
        "topic": "talks",
        "tagline": "Monthly talks, walks and a journal on the history of Thornby and its villages; we use the county archives for all of it.",
        "search_path": "/talks/search",
        "search_title": "Find a talk",
        "field": ("q", "Speaker or subject"),
        "select": ("Season", ["2021-22", "2022-23", "2023-24", "2024-25", "2025-26"]),
        "noun": "talk",
        "plural": "talks",
        "about_path": "/using-the-archives/",
        "about_title": "Using the archives",
        "about_text": "Our members research in the county record offices and archives. Collections we have written about in the journal:",
        "beside": ("Join the society", "membership"),
    },
    "sightings": {
        "host": "www.seabird-boat-trips.test",
        "name": "Seabird Boat Trips Eskby",
        "topic": "boattrips",
        "tagline": "Puffin, seal and whale-watching trips from Eskby harbour, April to October.",
        "search_path": "/trips/search",
        "search_title": "Find a trip",
        "field": ("when", "Date or trip name"),
        "select": ("Trip", ["Puffin cruise", "Seal safari", "Whale watch", "Sunset cruise", "Fishing trip"]),
        "noun": "trip",
        "plural": "trips",
        "about_path": "/recent-sightings/",
        "about_title": "Recent sightings from the boat",
        "about_text": "Our skippers send their sightings to the county recorders. Sightings from this week's trips:",
        "beside": ("Book a trip", "tripbook"),
    },
}
# heldout34-36 keep heldout31-33's shapes (fresh12) but four, and add their own (see _plan_traits7):
# - at depth 1 the search page is on a sub-host of the site, in a subfolder
#   (http://catalogue.NAME.test/en/search): the www menu links to it by its absolute URL; the
#   page has its own small layout, the form's action is on the sub-host too;
# - at depth 2 the search page is linked only from the site map (/sitemap, "Site map" in every
#   page's footer), not from the menu, the hub or any other page;
# - at depth 3 the home page is a language chooser (English and one other language, a splash page
#   with no menu); the English home page is /en/, the search two links below it;
# - a near-topic site whose records carry the topic's own words (a pharmacy recruiter's jobs, an
#   orienteering club's events, a data-skills trainer's courses): searchable, not the topic;
# - no German sites; a site map in the footer of some other sites; other names again.
FRESH13 = {"heldout34", "heldout35", "heldout36"}
FRESH13_NAMES = {
    "docs.lumen-lang.test": ("docs.wryneck-lang.test", "Wryneck 0.9 documentation"),
    "www.dailyledger.test": ("www.harrowbyecho.test", "The Harrowby Echo"),
    "www.ironworks-supply.test": ("www.ridgeway-tools.test", "Ridgeway Tools"),
    "forum.backyardgrowers.test": ("forum.potting-bench.test", "Potting Bench Forum"),
    "www.metroweather.test": ("www.harrowbyskies.test", "Harrowby Skies"),
    "www.openlinkdirectory.test": ("www.signpostdirectory.test", "Signpost Directory"),
    "www.webguide.test": ("www.handpicked-sites.test", "Handpicked Sites"),
    "www.tuesdaylinks.test": ("www.saturdayroundup.test", "Saturday Roundup"),
}
FRESH13_OFFTOPIC_NAMES = {
    "www.northmoor-volunteers.test": ("www.harrowby-volunteers.test", "Harrowby Volunteer Bureau"),
    "www.fairrent-advice.test": ("www.harrowby-renters.test", "Harrowby Renters' Network"),
}
FRESH13_WORDS = [
    ("Lumen", "Wryneck"),
    ("Daily Ledger", "Harrowby Echo"),
    ("Ledger", "Echo"),
    ("Ironworks Supply Co.", "Ridgeway Tools"),
    ("Ironworks", "Ridgeway"),
    ("Backyard Growers", "Potting Bench"),
    ("Metro Weather", "Harrowby Skies"),
    ("Tuesday", "Saturday"),
]
FILLERS13 = [
    ("Harrowby Physio", "harrowbyphysio"),
    ("Mill Lane Dental", "milllanedental"),
    ("Little Acorns Harrowby", "littleacornsharrowby"),
    ("St Hilda's Harrowby", "sthildasharrowby"),
    ("Harrowby Brass Band", "harrowbybrass"),
    ("Harrowby Repair Cafe", "harrowbyrepaircafe"),
    ("Fenwick Plumbing", "fenwickplumbing"),
    ("The Blue Door Bakery", "bluedoorbakery"),
    ("Cut Above Barbers", "cutaboveharrowby"),
    ("Harrowby Mill Cottages", "harrowbymillcottages"),
    ("Ashdown Tree Surgeons", "ashdowntrees"),
    ("Harrowby Tennis Club", "harrowbytennis"),
    ("Harrowby Harriers", "harrowbyharriers"),
    ("Nadia Okafor Glass", "nadiaokaforglass"),
    ("Harrowby Canal Society", "harrowbycanal"),
    ("Harrowby Food Bank", "harrowbyfoodbank"),
    ("Harrowby Film Club", "harrowbyfilmclub"),
]
FILLERS13 = [(n, h, c) for (n, h), c in zip(FILLERS13, [f[2] for f in FILLERS7], strict=True)]  # the categories of FILLERS7
FRESH13_FILLER_FORMS = {
    "fenwickplumbing": ("Get a quote", "/quote/", "quote"),
    "harrowbymillcottages": ("Check availability", "/availability/", "availability"),
    "harrowbybrass": ("Join the band", "/join/", "registration"),
    "harrowbyfoodbank": ("Donate", "/donate/", "donate"),
    "cutaboveharrowby": ("Book an appointment", "/book/", "booking"),
    "bluedoorbakery": ("Book a table", "/book-a-table/", "table"),
}
# pages of heldout34-36's scored sites with a form that is not a search, shaped like it
FRESH13_EXTRAS = {
    "medicines": [("Report a side effect", "/report-a-side-effect", "menu", "sideeffect")],
    "maps": [("Order a reproduction", "/order-a-reproduction", "footer", "mapcopy")],
    "datasets": [("Request data", "/request-data", "menu", "datarequest")],
}
FRESH13_BESIDE = {"medicines": "sideeffect", "maps": "mapcopy", "datasets": "datarequest"}
SUBHOSTS13 = ["catalogue", "find", "explore", "lookup", "data"]  # not "search": hosted site searches use it
# the language chooser's other language: (code, name, "choose your language", the page's text)
CHOOSER_LANGS13 = [
    ("cy", "Cymraeg", "Dewiswch eich iaith", "Mae'r fersiwn Gymraeg o'r wefan yn cael ei pharatoi."),
    ("ga", "Gaeilge", "Roghnaigh do theanga", "Táimid ag ullmhú leagan Gaeilge den suíomh."),
    ("fr", "Français", "Choisissez votre langue", "La version française du site est en préparation."),
    ("de", "Deutsch", "Sprache wählen", "Die deutsche Fassung der Website ist in Vorbereitung."),
]
NEAR13 = {
    "medicines": {
        "host": "www.pharmarecruit-north.test",
        "name": "PharmaRecruit North",
        "topic": "pharmacyjobs",
        "tagline": "Pharmacy and medicines jobs across the north: pharmacists, technicians and dispensary staff.",
        "search_path": "/jobs/search",
        "search_title": "Find a pharmacy job",
        "field": ("keywords", "Job title or medicine area"),
        "select": ("Contract", ["Permanent", "Locum", "Part time", "Fixed term"]),
        "noun": "vacancy",
        "plural": "vacancies",
        "about_path": "/medicines-we-work-with/",
        "about_title": "Medicines we work with",
        "about_text": "Our pharmacists dispense and check thousands of medicines a day. Some of the products our clients' dispensaries stock most:",
        "beside": ("Register your CV", "cvregister"),
        "titles": [
            "Pharmacist, medicines management team, {place}",
            "Dispensary assistant, medicines counter, {place}",
            "Medicines optimisation technician, {place}",
            "Pharmacist prescriber, high-risk medicines clinic, {place}",
            "Medicines information pharmacist, {place} hospital",
        ],
    },
    "maps": {
        "host": "www.eskby-orienteers.test",
        "name": "Eskby Orienteers",
        "topic": "orienteering",
        "tagline": "Orienteering events on the moors and in the towns of the north, with new maps every season.",
        "search_path": "/events/search",
        "search_title": "Find an event",
        "field": ("q", "Venue or map name"),
        "select": ("Level", ["Beginners", "Club", "Regional", "National", "Night"]),
        "noun": "event",
        "plural": "events",
        "about_path": "/our-maps/",
        "about_title": "Our maps",
        "about_text": "Every event uses a map surveyed by our members. The old maps we worked from for our areas:",
        "beside": ("Enter an event", "evententry"),
        "titles": [
            "{place} map: {opt} event, new map 1:10,000",
            "{place} sprint, town map 1:4,000 ({opt})",
            "Night score on the {place} map ({opt})",
            "{place} moor: {opt} event on the revised map",
            "Map walk and training at {place} ({opt})",
        ],
    },
    "datasets": {
        "host": "www.datacraft-training.test",
        "name": "DataCraft Training",
        "topic": "datatraining",
        "tagline": "Short courses in working with data: spreadsheets, Python and open datasets, for councils and charities.",
        "search_path": "/courses/search",
        "search_title": "Find a course",
        "field": ("q", "Course or skill"),
        "select": ("Format", ["Online", "Classroom", "In-house", "Self-paced"]),
        "noun": "course",
        "plural": "courses",
        "about_path": "/datasets-we-teach-with/",
        "about_title": "Datasets we teach with",
        "about_text": "Our courses use real open datasets published by councils and public bodies. Some of the datasets we use:",
        "beside": ("Book a place", "coursebook"),
        "titles": [
            "Cleaning open datasets in Python ({place})",
            "Working with council datasets in spreadsheets ({place})",
            "Mapping a dataset: GeoJSON and open data ({place})",
            "Publishing your own dataset as open data ({place})",
            "Data set joins and lookups for analysts ({place})",
        ],
    },
}
# heldout37-39 keep heldout34-36's construction (fresh13: names, fillers, site maps, sub-hosts and
# language choosers on other topics' sites, the near-topic site, no German site) but give the scored
# topic's sites at depths 1, 2 (the site whose action robots.txt allows) and 3 shapes drawn from the
# whole range of the earlier batches, a different combination on each web: (depth 1, depth 2, depth 3)
# - heldout37: the search page as an <iframe> widget of the home page (heldout31-33), the search page
#   linked from the site map only (heldout34-36), the terms page in front of the search (heldout18-30);
# - heldout38: an image-map-only menu entry (heldout26/27), a search with no submit control
#   (heldout31-33), the language-chooser home page (heldout34-36);
# - heldout39: the search page on a sub-host in a subfolder (heldout34-36), the fields and button
#   outside an empty <form>, tied by form="ID" (heldout23-25), the terms page (heldout18-30).
# The depth-0 search is the <noscript> fallback of a JavaScript app, the second depth-2 one the
# "Advanced" page (robots.txt disallows its action) with a look-alike form beside it, as before.
FRESH14 = {"heldout37", "heldout38", "heldout39"}
SHAPES14 = {
    "heldout37": ("iframe", "sitemap", "disclaimer"),
    "heldout38": ("maplink", "nosubmit", "chooser"),
    "heldout39": ("subpage", "formattr", "disclaimer"),
}
# pages of heldout37-39's scored sites with a form that is not a search, shaped like it
FRESH14_EXTRAS = {
    "companies": [("Order documents", "/order-documents", "menu", "companydocs")],
    "specimens": [("Request a loan", "/request-a-loan", "footer", "specimenloan")],
    "photographs": [("Order a print", "/order-a-print", "menu", "printorder")],
}
FRESH14_BESIDE = {"companies": "companydocs", "specimens": "specimenloan", "photographs": "printorder"}
NEAR14 = {
    "companies": {
        "host": "www.ledgerline-accountants.test",
        "name": "Ledgerline Accountants",
        "topic": "accountancy",
        "tagline": "Accountants for limited companies and sole traders in the north: company formation, accounts and payroll.",
        "search_path": "/services/search",
        "search_title": "Find a service",
        "field": ("q", "Service or company type"),
        "select": ("Office", ["Kelby", "Northmoor", "Eskby", "Online"]),
        "noun": "service",
        "plural": "services",
        "about_path": "/companies-we-work-with/",
        "about_title": "Companies we work with",
        "about_text": "We file accounts for hundreds of limited companies every year. Some of the companies we look after:",
        "beside": ("Book a free consultation", "consultbook"),
        "titles": [
            "Company formation: register a limited company ({opt} office)",
            "Year-end accounts for small companies ({opt} office)",
            "Company secretarial service: confirmation statements and filings ({opt})",
            "Closing a company: dissolution and strike-off ({opt})",
            "Payroll for companies with up to 50 staff ({opt} office)",
        ],
    },
    "specimens": {
        "host": "www.wildside-fieldtrips.test",
        "name": "Wildside Field Trips",
        "topic": "naturetrips",
        "tagline": "Guided days out for naturalists: moorland plants, coastal fossils and moth nights across the north.",
        "search_path": "/trips/search",
        "search_title": "Find a field trip",
        "field": ("q", "Place or group"),
        "select": ("Season", ["Spring", "Summer", "Autumn", "Winter"]),
        "noun": "trip",
        "plural": "trips",
        "about_path": "/specimens-you-might-see/",
        "about_title": "Specimens you might see",
        "about_text": "Our guides show you where the museums' old specimens were collected. Some of the finds in local collections:",
        "beside": ("Book a place", "tripplace"),
        "titles": [
            "{place}: fossil specimens on the shore ({opt})",
            "Moss and lichen specimens walk, {place} ({opt})",
            "Moth night at {place}: recording and specimen photography ({opt})",
            "Herbarium specimens and the living plants: {place} ({opt})",
            "Collecting specimens responsibly: a day at {place} ({opt})",
        ],
    },
    "photographs": {
        "host": "www.brightframe-studio.test",
        "name": "Brightframe Studio",
        "topic": "photoclasses",
        "tagline": "Photography classes and studio hire in the north: portraits, film and darkroom printing.",
        "search_path": "/classes/search",
        "search_title": "Find a class",
        "field": ("q", "Class or skill"),
        "select": ("Level", ["Beginner", "Improver", "Advanced", "Darkroom"]),
        "noun": "class",
        "plural": "classes",
        "about_path": "/photographs-we-love/",
        "about_title": "Old photographs we love",
        "about_text": "Our classes start from the archive photographs of the north. Some of the photographs that inspire us:",
        "beside": ("Hire the studio", "studiohire"),
        "titles": [
            "Photographing {place} streets like the old photographs ({opt})",
            "Restoring old family photographs ({opt}, {place})",
            "Darkroom printing from negatives and glass plates ({opt}, {place})",
            "Portrait photographs in the studio ({opt}, {place})",
            "Photograph walk: {place} then and now ({opt})",
        ],
    },
}
# heldout40-42 keep heldout37-39's construction (heldout34-36's names, fillers, site maps, sub-hosts and
# language choosers on other topics' sites, the near-topic site, the <noscript> search at depth 0, the
# "Advanced" page at depth 2 whose action robots.txt disallows) but give the scored topic's sites at
# depths 1, 2 (the site whose action robots.txt allows) and 3 shapes of real sites that no earlier web
# has, a different combination on each web: (depth 1, depth 2, depth 3)
# - "dualform": a page reached by a link named "Search" only, holding a basic search (one box) and
#   an advanced search (every field) of the same records, with the same action;
# - "csrf": a POST search carrying a hidden CSRF token (and a form build id); a submission without
#   the page's token is refused (403, "your session has expired"), as CMS and framework forms are;
# - "refresh": the search answers with a "Searching..." page whose <meta http-equiv="refresh"> (and
#   a "click here" link) leads to the results at another URL (/results/view?sid=...&the query);
# - "consent": the home page is a cookie-consent wall: two POST forms (accept all / reject), a
#   link to the cookie policy and one to continue to /home, the home page the site would have had;
#   the search two links below /home;
# - heldout41 and heldout42 also reuse heldout34-36's language chooser and heldout18-30's terms page.
# Other topics' sites get the four new shapes at random too.
FRESH15 = {"heldout40", "heldout41", "heldout42"}
SHAPES15 = {
    "heldout40": ("dualform", "csrf", "consent"),
    "heldout41": ("csrf", "refresh", "chooser"),
    "heldout42": ("refresh", "dualform", "consent"),
}
# pages of heldout40-42's scored sites with a form that is not a search, shaped like it
FRESH15_EXTRAS = {
    "buildings": [("Report a building at risk", "/report-a-building-at-risk", "menu", "buildingrisk")],
    "newspapers": [("Order a page", "/order-a-page", "footer", "pageorder")],
    "finds": [("Record a find", "/record-a-find", "menu", "findreport")],
}
FRESH15_BESIDE = {"buildings": "buildingrisk", "newspapers": "pageorder", "finds": "findreport"}
# heldout43-45 keep heldout40-42's construction (and SHAPES15's shapes at random on other topics' sites)
# but give the scored topic's sites at depths 1, 2 (the allowed one) and 3 shapes of real sites that no
# earlier web has, a different combination on each web: (depth 1, depth 2, depth 3)
# - "pathquery": a form with one text box and method GET whose action answers 302 with a Location
#   that puts the query in the URL path (/search/q/TERM); the results are at that path (pretty URLs
#   of catalogue and CMS searches);
# - "reqselect": a search whose only required field is a <select required> of the site's categories
#   (first option "Choose ...", value ""); the text box is optional; a submission without a category
#   is answered "Please choose ..." with no records (as collection databases split by collection do);
# - "hamburger": the site's whole navigation (menu, hub and search links) only in a <details> drawer
#   whose <summary> is a "hamburger" icon with an aria-label, on every page (mobile-first themes);
# - "shortzero": words shorter than four letters are ignored (a full-text index's minimum word
#   length): a query of short words only gets "0 results", a page with the results' frame and no rows.
# Other topics' sites get the four new shapes at random too.
FRESH16 = {"heldout43", "heldout44", "heldout45"}
SHAPES16 = {
    "heldout43": ("pathquery", "reqselect", "hamburger"),
    "heldout44": ("reqselect", "shortzero", "pathquery"),
    "heldout45": ("hamburger", "pathquery", "shortzero"),
}
# pages of heldout43-45's scored sites with a form that is not a search, shaped like it
FRESH16_EXTRAS = {
    "stamps": [("Get a stamp expertised", "/expertising", "menu", "expertise")],
    "placenames": [("Send us a name", "/send-us-a-name", "footer", "namesubmit")],
    "bells": [("Book a tower visit", "/book-a-tower-visit", "menu", "towervisit")],
}
FRESH16_BESIDE = {"stamps": "expertise", "placenames": "namesubmit", "bells": "towervisit"}
PATHQ16 = ["/search/q/", "/find/term/", "/lookup/", "/s/q/"]
# heldout46-48 keep heldout43-45's construction (and SHAPES15's and SHAPES16's shapes at random on other
# topics' sites) but give the scored topic's sites at depths 1, 2 (the allowed one) and 3 shapes of real
# sites that no earlier web has, a different combination on each web: (depth 1, depth 2, depth 3)
# - "shadow": the search form only inside a web component's declarative shadow root
#   (<site-search><template shadowrootmode="open">...</template></site-search>), as server-rendered
#   component libraries write it; browsers show it without JavaScript;
# - "basehref": the search page has <base href="/PREFIX/"> and the form a relative action
#   ("search.do"): it submits to /PREFIX/search.do, not beside the page (old catalogue front ends);
# - "titleonly": no label, placeholder or aria-label: each field named only by its title attribute
#   (a tooltip), with opaque names (f1, s1, ...), as generated forms of old database front ends are;
# - "bracket": JSON-like field names (search[terms], search[filters][type], search[page][size]) of
#   a framework's nested parameters, POST or GET;
# - "welsh": on an English site, the search page's form written in Welsh only (heading, labels,
#   placeholder, button, "any" option: "Chwilio", "Geiriau allweddol", "Unrhyw"); the records and the
#   results stay English (a bilingual public body's front end over one database).
# Other topics' sites get the five new shapes at random too.
FRESH17 = {"heldout46", "heldout47", "heldout48"}
SHAPES17 = {
    "heldout46": ("shadow", "basehref", "welsh"),
    "heldout47": ("bracket", "titleonly", "shadow"),
    "heldout48": ("welsh", "bracket", "basehref"),
}
SHAPES17_ALL = ("shadow", "basehref", "titleonly", "bracket", "welsh")
# pages of heldout46-48's scored sites with a form that is not a search, shaped like it
FRESH17_EXTRAS = {
    "minutes": [("Ask a question at council", "/public-questions", "menu", "councilquestion")],
    "wrecks": [("Report a wreck", "/report-a-wreck", "footer", "wreckreport")],
    "matches": [("Send us a scorecard", "/send-a-scorecard", "menu", "scorecard")],
}
FRESH17_BESIDE = {"minutes": "councilquestion", "wrecks": "wreckreport", "matches": "scorecard"}
BASEHREF17 = ["/opac/", "/cgi/db/", "/app/catalogue/", "/lib/search/"]
NEAR17 = {
    "minutes": {
        "host": "www.clearrecord-secretarial.test",
        "name": "Clear Record Secretarial",
        "topic": "minutetaking",
        "tagline": "Minute takers for councils, charities and boards: meetings minuted, typed and sent within two days.",
        "search_path": "/services/search",
        "search_title": "Find a service",
        "field": ("q", "Service or meeting type"),
        "select": ("Service", ["Minute taking", "Transcription", "Agenda packs", "Training"]),
        "noun": "service",
        "plural": "services",
        "about_path": "/minutes-we-have-taken/",
        "about_title": "Minutes we have taken",
        "about_text": "We have taken the minutes of thousands of meetings. Some of the minutes our clients ask us for most:",
        "beside": ("Ask for a quote", "minutequote"),
        "titles": [
            "Minutes taken for parish council meetings, {place} ({opt})",
            "Board meeting minutes within 48 hours, {place} ({opt})",
            "Minute taking course for clerks, {place} ({opt})",
            "Minutes and action lists for charity trustees, {place} ({opt})",
            "Verbatim minutes of public inquiries, {place} ({opt})",
        ],
    },
    "wrecks": {
        "host": "www.deepblue-divecharters.test",
        "name": "Deep Blue Dive Charters",
        "topic": "divecharters",
        "tagline": "Hard-boat dive charters from Eskby harbour: wreck dives, drift dives and training trips.",
        "search_path": "/trips/search",
        "search_title": "Find a dive trip",
        "field": ("q", "Trip, site or date"),
        "select": ("Level", ["Novice", "Sport diver", "Technical", "Snorkel"]),
        "noun": "trip",
        "plural": "trips",
        "about_path": "/wrecks-we-dive/",
        "about_title": "Wrecks we dive",
        "about_text": "Our skippers know every wreck off the coast. Some of the wrecks our divers ask for most:",
        "beside": ("Book a place", "divebooking"),
        "titles": [
            "Wreck dive on the steamship off {place} ({opt})",
            "Two wrecks in a day from {place} ({opt})",
            "Shipwreck photography trip, {place} ({opt})",
            "Wreck penetration course, {place} ({opt})",
            "Evening wreck dive at {place} ({opt})",
        ],
    },
    "matches": {
        "host": "www.boundaryrope-tickets.test",
        "name": "Boundary Rope Tickets",
        "topic": "sportstickets",
        "tagline": "Tickets and hospitality for county and test cricket across the north.",
        "search_path": "/tickets/search",
        "search_title": "Find tickets",
        "field": ("q", "Team, ground or date"),
        "select": ("Package", ["Standard", "Family", "Hospitality", "Members"]),
        "noun": "ticket",
        "plural": "tickets",
        "about_path": "/matches-we-sell/",
        "about_title": "Matches we sell tickets for",
        "about_text": "We sell tickets for the big matches of the summer. Some of the matches our customers ask for most:",
        "beside": ("Book hospitality", "hospitalitybooking"),
        "titles": [
            "Match tickets: county championship matches at {place} ({opt})",
            "Twenty20 matches: match day at {place} ({opt})",
            "Test match hospitality, {place} ({opt})",
            "Family tickets for league matches, {place} ({opt})",
            "Cup final match tickets, {place} ({opt})",
        ],
    },
}
NEAR16 = {
    "stamps": {
        "host": "www.northpost-stampshop.test",
        "name": "Northpost Stamp Shop",
        "topic": "stampshop",
        "tagline": "Albums, hinges, mounts, tweezers and magnifiers for stamp collectors, posted the same day.",
        "search_path": "/shop/search",
        "search_title": "Find a product",
        "field": ("q", "Product or brand"),
        "select": ("Range", ["Albums", "Mounts", "Tweezers", "Magnifiers", "Catalogues"]),
        "noun": "product",
        "plural": "products",
        "about_path": "/stamps-our-customers-collect/",
        "about_title": "Stamps our customers collect",
        "about_text": "Our customers collect every kind of stamp. A few of the stamps they ask us about most:",
        "beside": ("Request a catalogue", "catalogrequest"),
        "titles": [
            "Stamp album for {place} collectors ({opt})",
            "Stamp mounts, clear, {place} pack ({opt})",
            "Spade-tip stamp tweezers, {place} ({opt})",
            "Stamp magnifier with light, {place} ({opt})",
            "Stockbook for used stamps, {place} ({opt})",
        ],
    },
    "placenames": {
        "host": "www.fellside-signwriters.test",
        "name": "Fellside Signwriters",
        "topic": "signwriting",
        "tagline": "Hand-painted and carved signs for houses, farms and villages across the north.",
        "search_path": "/signs/search",
        "search_title": "Find a sign",
        "field": ("q", "Name, village or style"),
        "select": ("Style", ["Carved oak", "Painted", "Slate", "Cast metal", "Gilded"]),
        "noun": "sign",
        "plural": "signs",
        "about_path": "/placenames-we-have-painted/",
        "about_title": "Placenames we have painted",
        "about_text": "We have painted hundreds of village and farm placenames. Some of the placenames we know best:",
        "beside": ("Ask for a quote", "signquote"),
        "titles": [
            "{place} village placename sign ({opt})",
            "Farm gate sign with the old placename, {place} ({opt})",
            "House placename plaque, {place} ({opt})",
            "Placename fingerpost restored at {place} ({opt})",
            "{place} boundary stone: placename lettering ({opt})",
        ],
    },
    "bells": {
        "host": "www.ringtrue-handbells.test",
        "name": "Ring True Handbells",
        "topic": "handbellhire",
        "tagline": "Handbell sets to hire and buy for schools, choirs and churches, with music and lessons.",
        "search_path": "/sets/search",
        "search_title": "Find a handbell set",
        "field": ("q", "Set, size or occasion"),
        "select": ("Octaves", ["One octave", "Two octaves", "Three octaves", "Chimes"]),
        "noun": "set",
        "plural": "sets",
        "about_path": "/bells-we-look-after/",
        "about_title": "Bells we look after",
        "about_text": "We tune and repair church bells and handbells. Some of the bells that have passed through the workshop:",
        "beside": ("Book a taster session", "handbelltaster"),
        "titles": [
            "Handbells for schools: {place} hire set ({opt})",
            "Two-octave bells for a church choir, {place} ({opt})",
            "{place} Christmas handbell hire ({opt})",
            "Beginners' bells and music pack, {place} ({opt})",
            "{place} bell chimes for weddings ({opt})",
        ],
    },
}
NEAR15 = {
    "buildings": {
        "host": "www.limeandstone-builders.test",
        "name": "Lime and Stone Builders",
        "topic": "conservationbuilders",
        "tagline": "Builders for old buildings in the north: lime mortar, stone repairs and slate roofs on listed buildings.",
        "search_path": "/projects/search",
        "search_title": "Find a project",
        "field": ("q", "Building or kind of work"),
        "select": ("Work", ["Repointing", "Roofing", "Stone repair", "Windows", "Damp"]),
        "noun": "project",
        "plural": "projects",
        "about_path": "/buildings-we-have-worked-on/",
        "about_title": "Buildings we have worked on",
        "about_text": "We have repaired hundreds of listed buildings. Some of the buildings on the list that we know well:",
        "beside": ("Ask for a survey", "surveybook"),
        "titles": [
            "Listed building repointing in lime, {place} ({opt})",
            "Grade II farm buildings: new roof, {place} ({opt})",
            "Stone repairs to a mill building at {place} ({opt})",
            "Sash windows for a listed building, {place} ({opt})",
            "Old building, new use: barn conversion at {place} ({opt})",
        ],
    },
    "newspapers": {
        "host": "www.paperround-north.test",
        "name": "Paper Round North",
        "topic": "newsdelivery",
        "tagline": "Newspapers and magazines delivered to your door across the north, every morning before seven.",
        "search_path": "/rounds/search",
        "search_title": "Find your round",
        "field": ("q", "Street, village or newspaper"),
        "select": ("Days", ["Every day", "Weekdays", "Weekends", "Sundays only"]),
        "noun": "round",
        "plural": "rounds",
        "about_path": "/newspapers-we-deliver/",
        "about_title": "Newspapers we deliver",
        "about_text": "We deliver every daily and weekly newspaper in the region. Old titles our customers still ask about:",
        "beside": ("Start a delivery", "deliverystart"),
        "titles": [
            "{place} morning round: daily newspapers ({opt})",
            "Newspaper delivery, {place} villages ({opt})",
            "{place} weekend newspapers and magazines ({opt})",
            "Sunday newspapers round, {place} ({opt})",
            "{place} town centre: newspapers before 7 ({opt})",
        ],
    },
    "finds": {
        "host": "www.kelby-detectorists.test",
        "name": "Kelby Detectorists",
        "topic": "detecting",
        "tagline": "Metal detecting club for the north: club digs, finds days with the finds liaison officer, and a friendly welcome.",
        "search_path": "/digs/search",
        "search_title": "Find a club dig",
        "field": ("q", "Farm, parish or month"),
        "select": ("Kind", ["Club dig", "Rally", "Finds day", "Beginners day"]),
        "noun": "dig",
        "plural": "digs",
        "about_path": "/our-finds/",
        "about_title": "Our members' finds",
        "about_text": "Every find made on a club dig is recorded. Some of the finds our members are proudest of:",
        "beside": ("Join the club", "clubjoin"),
        "titles": [
            "{place}: club dig, finds recorded on the day ({opt})",
            "Finds day at {place} with the finds liaison officer ({opt})",
            "{place} stubble field: rally, all finds recorded ({opt})",
            "Beginners' finds walk, {place} ({opt})",
            "{place} pasture: winter dig and finds table ({opt})",
        ],
    },
}
# the German sites' words: whole texts first, then phrases inside longer texts
GERMAN = {
    "Home": "Startseite",
    "About us": "Über uns",
    "About": "Über uns",
    "Contact": "Kontakt",
    "Contact us": "Kontakt",
    "Help": "Hilfe",
    "Privacy policy": "Datenschutz",
    "Terms of use": "Nutzungsbedingungen",
    "Partners": "Partner",
    "Cart": "Warenkorb",
    "Your cart": "Ihr Warenkorb",
    "Gift cards": "Gutscheine",
    "My account": "Mein Konto",
    "Log in": "Anmelden",
    "Sign in": "Anmelden",
    "Events": "Veranstaltungen",
    "News": "Aktuelles",
    "Store news": "Neuigkeiten",
    "Featured": "Empfehlungen",
    "Staff picks": "Unsere Empfehlungen",
    "This week": "Diese Woche",
    "Browse by category": "Nach Kategorie",
    "Departments": "Bereiche",
    "Categories": "Kategorien",
    "Search": "Suchen",
    "Search:": "Suche:",
    "Find": "Finden",
    "Go": "Los",
    "Clear": "Zurücksetzen",
    "Reset": "Zurücksetzen",
    "Subscribe": "Abonnieren",
    "Sign up": "Anmelden",
    "Send": "Absenden",
    "Submit": "Absenden",
    "Email": "E-Mail",
    "Your email": "Ihre E-Mail-Adresse",
    "Email address": "E-Mail-Adresse",
    "Name": "Name",
    "Your name": "Ihr Name",
    "Message": "Nachricht",
    "Subject": "Betreff",
    "Password": "Passwort",
    "Username": "Benutzername",
    "Keywords": "Stichwörter",
    "Any": "Alle",
    "All": "Alle",
    "Any text": "Beliebiger Text",
    "Title": "Titel",
    "Next": "Weiter",
    "Next page": "Nächste Seite",
    "Back": "Zurück",
    "Our stores": "Unsere Standorte",
    "Find a branch": "Filiale finden",
    "Track your order": "Bestellung verfolgen",
    "FAQ": "Häufige Fragen",
    "New customer?": "Neukunde?",
    "Search results": "Suchergebnisse",
    "Search this site": "Diese Website durchsuchen",
    "Was this page helpful?": "War diese Seite hilfreich?",
    "Yes": "Ja",
    "No": "Nein",
    "Sort by:": "Sortieren nach:",
    "Before you search": "Bevor Sie suchen",
    "Conditions of use": "Nutzungsbedingungen",
    "Using this service": "Hinweise zur Nutzung",
    "Accept and continue": "Akzeptieren und weiter",
    "I agree": "Ich stimme zu",
    "Continue": "Weiter",
    "Services": "Angebote",
    "Leave a comment": "Kommentar schreiben",
    "Forgot your password?": "Passwort vergessen?",
    "We never sell your personal data. Cookies are used for your cart.": "Wir verkaufen Ihre Daten nie. Cookies verwenden wir für den Warenkorb.",
    "Prices and availability are subject to change.": "Änderungen vorbehalten.",
    "Friends of the shop:": "Unsere Partner:",
    "Limit to": "Eingrenzen auf",
    "Find what you need": "Finden, was Sie suchen",
    "With chords": "Mit Akkorden",
    "Chorus only": "Nur Refrain",
    "Full text": "Volltext",
    "Translation": "Übersetzung",
    "Original language": "Originalsprache",
    "1950s to 1970s": "1950er bis 1970er",
    "1980s to 1990s": "1980er bis 1990er",
    "Before 1950": "Vor 1950",
    "Since 2000": "Seit 2000",
    "Before 1600": "Vor 1600",
    "1600 to 1800": "1600 bis 1800",
    "1800 to 1900": "1800 bis 1900",
    "After 1900": "Nach 1900",
    "Single": "Einzeln",
    "2 to 5": "2 bis 5",
    "6 to 20": "6 bis 20",
    "More than 20": "Mehr als 20",
    "I have read and accept the terms of use": "Ich habe die Nutzungsbedingungen gelesen und akzeptiere sie",
    "Submit lyrics": "Liedtext einsenden",
    "Add a song": "Lied hinzufügen",
    "Send us the words": "Schicken Sie uns den Text",
    "Order a copy of a document": "Reproduktion bestellen",
    "Copies and reproductions": "Reproduktionen",
    "Submit a sighting": "Beobachtung melden",
    "Send in your record": "Beobachtung einsenden",
    "Tell us what you saw": "Was haben Sie gesehen?",
    "All lyrics": "Alle Liedtexte",
    "All archives": "Alle Bestände",
    "All sightings": "Alle Meldungen",
    "Lyrics department": "Liedtexte",
    "Archives department": "Bestände",
    "Sightings department": "Meldungen",
    "Help & tools": "Hilfe & Werkzeuge",
    "Notice": "Hinweis",
    "Thank you": "Vielen Dank",
    "Skip to content": "Zum Inhalt springen",
    "Browse": "Stöbern",
    "Sell to us": "An uns verkaufen",
    "Cookie settings": "Cookie-Einstellungen",
    "Specials": "Angebote",
    "How could we improve it?": "Was können wir besser machen?",
    "Send feedback": "Rückmeldung senden",
    "New arrivals by email": "Neuheiten per E-Mail",
    "Get our newsletter": "Unser Newsletter",
    "Currency": "Währung",
    "Update": "Übernehmen",
    "Category": "Kategorie",
    "Price": "Preis",
    "Qty": "Menge",
    "You may also like": "Das könnte Sie auch interessieren",
    "Add to cart": "In den Warenkorb",
    "Author": "Autor",
    "Artist": "Künstler",
    "Skip to main content": "Zum Inhalt springen",
    "Best sellers": "Bestseller",
    "New arrivals": "Neuheiten",
    "Follow us": "Folgen Sie uns",
    "Stay in touch": "In Verbindung bleiben",
    "Main": "Hauptmenü",
    "You are here": "Sie sind hier",
    "Rehoming": "Vermittlung",
    "Lost & found": "Entlaufen & gefunden",
    "Donate": "Spenden",
    "Choose a page...": "Seite wählen ...",
    "Urgent homes": "Dringend gesucht",
    "Your email address": "Ihre E-Mail-Adresse",
    "Deliver to": "Lieferland",
    "Join": "Anmelden",
    "Reference": "Aktenzeichen",
    "Song no.": "Lied-Nr.",
    "Record no.": "Meldungs-Nr.",
    "Creator": "Provenienz",
    "Document of the month": "Archivale des Monats",
    "Newly catalogued": "Neu verzeichnet",
    "Recently digitised": "Neu digitalisiert",
    "Collection highlights": "Höhepunkte der Bestände",
    "New this week": "Neu diese Woche",
    "Most searched songs": "Meistgesuchte Lieder",
    "Songs of the month": "Lieder des Monats",
    "Recently corrected": "Zuletzt korrigiert",
    "Latest reports": "Neueste Meldungen",
    "Scarce visitors": "Seltene Gäste",
    "First of the year": "Erstbeobachtungen des Jahres",
    "Highlights of the month": "Höhepunkte des Monats",
    "Find a branch near you": "Filiale in Ihrer Nähe",
    "Town or postcode": "Ort oder Postleitzahl",
    "Distance": "Entfernung",
    "Sign in to save your searches": "Anmelden, um Suchen zu speichern",
    "Search tips": "Suchtipps",
    "Ordering help": "Hilfe zur Bestellung",
    "Send the song": "Lied senden",
    "The words": "Der Text",
    "Add to order": "Zur Bestellung hinzufügen",
    "Kind of copy": "Art der Reproduktion",
    "Title of the document": "Titel der Archivale",
    "Send record": "Meldung senden",
    "Date seen": "Beobachtet am",
    "How many": "Anzahl",
    "Photo": "Foto",
    "Comment": "Kommentar",
    "Post comment": "Kommentar senden",
    "Menu": "Menü",
    "Quick links": "Schnellzugriff",
    "Newsletter": "Newsletter",
    # the scored topics' own words
    "Song title": "Liedtitel",
    "Artist or writer": "Interpret oder Autor",
    "Words in the song": "Textzeile",
    "Album": "Album",
    "Style": "Stilrichtung",
    "Version": "Fassung",
    "Written": "Entstanden",
    "Find a song": "Lied finden",
    "Search the songbook": "Liederbuch durchsuchen",
    "Look up the words": "Text nachschlagen",
    "Song finder": "Liedsuche",
    "Find the words": "Text finden",
    "Songbook": "Liederbuch",
    "Songs": "Lieder",
    "The collection": "Die Sammlung",
    "Words": "Texte",
    "Singers' corner": "Für Sänger",
    "Show songs": "Lieder anzeigen",
    "Send us a song": "Liedtext einsenden",
    "Reference code": "Signatur",
    "Creator or person": "Provenienz oder Person",
    "Place": "Ort",
    "Level": "Verzeichnungsstufe",
    "Date range": "Laufzeit",
    "Search the catalogue": "Findbuch durchsuchen",
    "Catalogue search": "Archivsuche",
    "Explore the collections": "Bestände erkunden",
    "Find a document": "Dokument finden",
    "Search our holdings": "Bestände durchsuchen",
    "Collections": "Bestände",
    "Research": "Recherche",
    "Our holdings": "Unsere Bestände",
    "Using the record office": "Benutzung",
    "Discover": "Entdecken",
    "Show entries": "Einträge anzeigen",
    "Order copies": "Reproduktionen bestellen",
    "Species": "Art",
    "Site or town": "Fundort",
    "Grid reference": "Koordinaten",
    "Observer": "Beobachter",
    "Species group": "Artengruppe",
    "Status": "Status",
    "Count": "Anzahl",
    "Search the records": "Meldungen durchsuchen",
    "What's been seen": "Aktuelle Beobachtungen",
    "Find a species": "Art finden",
    "Search reports": "Meldungen suchen",
    "Recent records search": "Beobachtungssuche",
    "Records": "Meldungen",
    "Recording": "Melden",
    "The log": "Das Logbuch",
    "Reports": "Berichte",
    "Show records": "Meldungen anzeigen",
    "Send in a record": "Beobachtung melden",
    "Birds": "Vögel",
    "Mammals": "Säugetiere",
    "Butterflies": "Tagfalter",
    "Moths": "Nachtfalter",
    "Dragonflies": "Libellen",
    "Marine mammals": "Meeressäuger",
    "Confirmed": "Bestätigt",
    "Awaiting review": "In Prüfung",
    "Parish records": "Kirchenbücher",
    "Council minutes": "Ratsprotokolle",
    "Maps and plans": "Karten und Pläne",
    "Photographs": "Fotografien",
    "Family papers": "Familiennachlässe",
    "Folk": "Volkslieder",
    "Hymns": "Kirchenlieder",
    "Children's songs": "Kinderlieder",
}
GERMAN_PHRASES = [
    ("All rights reserved", "Alle Rechte vorbehalten"),
    (
        "The words to every verse and chorus, checked by singers, since",
        "Die Texte jeder Strophe und jedes Refrains, von Sängerinnen und Sängern geprüft, seit",
    ),
    (
        "Song lyrics checked by singers: every verse and chorus, listed since",
        "Liedtexte, von Sängern geprüft: jede Strophe, jeder Refrain, gesammelt seit",
    ),
    (
        "Each song shows the full words, who wrote them and the chords where we have them.",
        "Zu jedem Lied finden Sie den vollständigen Text, die Autoren und, wo vorhanden, die Akkorde.",
    ),
    ("Words are checked against the recording by a volunteer singer.", "Jeder Text wird von Ehrenamtlichen mit der Aufnahme verglichen."),
    (
        "Send a correction if a line is wrong; we check every one.",
        "Schicken Sie uns eine Korrektur, wenn eine Zeile falsch ist; wir prüfen jede.",
    ),
    ("Traditional songs list every version we know of.", "Bei Volksliedern verzeichnen wir jede bekannte Fassung."),
    ("Words to the songs you love", "Die Texte Ihrer Lieblingslieder"),
    ("Song words and verses", "Liedtexte und Strophen"),
    ("Singalong song words", "Texte zum Mitsingen"),
    ("Verses and choruses", "Strophen und Refrains"),
    (
        "Manuscripts, maps, minutes and records of the county, catalogued since",
        "Urkunden, Karten, Protokolle und Akten der Stadt, verzeichnet seit",
    ),
    (
        "Archives of the county: manuscripts, maps and records, catalogued since",
        "Archivgut der Stadt: Urkunden, Karten und Akten, verzeichnet seit",
    ),
    (
        "Each entry gives the reference code, the dates, the creator and where the papers can be seen.",
        "Jeder Eintrag nennt Signatur, Laufzeit, Provenienz und den Ort der Einsichtnahme.",
    ),
    (
        "Documents are produced in the searchroom: order them before your visit.",
        "Archivalien werden im Lesesaal vorgelegt: bitte bestellen Sie sie vor Ihrem Besuch.",
    ),
    (
        "Some papers are closed for 100 years under data protection rules.",
        "Manche Akten unterliegen aus Datenschutzgründen einer Sperrfrist von 100 Jahren.",
    ),
    ("Copies can be ordered for personal research.", "Reproduktionen können für die private Forschung bestellt werden."),
    ("County record office", "Stadtarchiv"),
    ("Records of the county", "Quellen zur Stadtgeschichte"),
    ("Manuscripts and records", "Urkunden und Akten"),
    ("Heritage collections catalogue", "Online-Findbuch"),
    (
        "What has been seen where: birds, mammals and butterflies reported by local recorders since",
        "Was wurde wo gesehen: Vögel, Säugetiere und Falter, gemeldet von Beobachtern seit",
    ),
    (
        "Wildlife sightings of the north: birds, mammals and butterflies, reported since",
        "Tierbeobachtungen im Norden: Vögel, Säugetiere und Falter, gemeldet seit",
    ),
    (
        "Each record shows the species, the place, the date, the count and who saw it.",
        "Jede Meldung nennt Art, Ort, Datum, Anzahl und Beobachter.",
    ),
    (
        "Records of rare species are checked by the county recorder before they are shown.",
        "Meldungen seltener Arten werden vor der Veröffentlichung geprüft.",
    ),
    (
        "Sensitive breeding sites are shown to the nearest 10 km square only.",
        "Empfindliche Brutplätze werden nur auf 10 km genau angezeigt.",
    ),
    ("Send your own records through the recording form.", "Melden Sie Ihre eigenen Beobachtungen über das Meldeformular."),
    ("Bird and wildlife records", "Vogel- und Tiermeldungen"),
    ("What's been seen where", "Was wurde wo gesehen"),
    ("Recorders' log", "Beobachtungslog"),
    ("County bird log", "Vogelmeldungen der Region"),
    ("is an independent business.", "ist ein unabhängiges Unternehmen."),
    ("Questions about an order? Write to us.", "Fragen zu einer Bestellung? Schreiben Sie uns."),
    ("Visit our", "Besuchen Sie unsere"),
    ("or read our", "oder lesen Sie unsere"),
    (
        "Please enter a search term, or choose at least one option, and search again.",
        "Bitte geben Sie einen Suchbegriff ein oder wählen Sie eine Option aus.",
    ),
    ("Please try different keywords.", "Bitte versuchen Sie andere Suchbegriffe."),
    ("matched your search", "zu Ihrer Suche gefunden"),
    ("Use the form below to search our", "Durchsuchen Sie mit diesem Formular unsere"),
    ("Search by any combination of fields.", "Sie können die Felder beliebig kombinieren."),
    ("Fill in one or more fields.", "Füllen Sie ein oder mehrere Felder aus."),
    ("Showing", "Angezeigt:"),
    ("Welcome to", "Willkommen bei"),
    ("Thanks for subscribing! Check your inbox to confirm.", "Danke für Ihre Anmeldung! Bitte bestätigen Sie sie per E-Mail."),
    ("Invalid username or password.", "Benutzername oder Passwort ungültig."),
    ("Thank you. Your message has been sent.", "Vielen Dank. Ihre Nachricht wurde gesendet."),
    ("Your comment is awaiting moderation.", "Ihr Kommentar wird geprüft."),
    ("Your cart is empty.", "Ihr Warenkorb ist leer."),
    ("Back to", "Zurück zu"),
    ("Open Monday to Saturday, 9 to 5.", "Geöffnet Montag bis Samstag, 9 bis 17 Uhr."),
    ("News: ", "Aktuelles: "),
    (
        "The information is provided for personal research. You may not copy it in bulk or use it to send marketing.",
        "Die Angaben dienen der privaten Forschung. Sie dürfen nicht in großem Umfang kopiert oder für Werbung genutzt werden.",
    ),
    ("Continue to", "Weiter zur"),
    ("unsere lyrics.", "unsere Liedtexte."),
    ("unsere archives.", "unsere Bestände."),
    ("unsere sightings.", "unsere Meldungen."),
    ("Find a lyric for me", "Liedtext gesucht"),
    ("Find a archive for me", "Archivale gesucht"),
    ("Find a sighting for me", "Beobachtung gesucht"),
    (" for &quot;", " für &quot;"),
    ("Search results", "Suchergebnisse"),
    ("Go to:", "Gehe zu:"),
    ("Page:", "Seite:"),
    ("Next &raquo;", "Weiter &raquo;"),
]
GERMAN_PHRASES += [(f"Continue to {en.lower()}", f"Weiter zu: {de}") for en, de in GERMAN.items() if " " in en]
GERMAN_PHRASES += [(f":: {en}", f":: {de}") for en, de in GERMAN.items()]
GERMAN_PHRASES = sorted(GERMAN_PHRASES, key=lambda p: -len(p[0]))
# the off-topic sites, portals of heldout8/9 under other names: old host -> (host, name)
FRESH3_NAMES = {
    "docs.lumen-lang.test": ("docs.quill-lang.test", "Quill 3.2 documentation"),
    "www.dailyledger.test": ("www.morningcourier.test", "The Morning Courier"),
    "www.ironworks-supply.test": ("www.anvil-supply.test", "Anvil Supply Co."),
    "forum.backyardgrowers.test": ("forum.allotmenttalk.test", "Allotment Talk Forum"),
    "www.metroweather.test": ("www.skycast-weather.test", "Skycast Weather"),
    "www.openlinkdirectory.test": ("www.curatedlinks.test", "Curated Links"),
    "www.webguide.test": ("www.sitefinder-index.test", "Sitefinder Index"),
    "www.tuesdaylinks.test": ("www.fridaylinks.test", "Friday Links"),
}
# the scored topic's search sub-host names on heldout8/9 (the form's page is on www.NAME.test)
SUBHOSTS = ["search", "records", "db", "catalogue"]
# heldout8/9's actions of an application in another path of the same host
APP_ACTIONS3 = ["/portal/records/query", "/opac/results", "/srv/lookup", "/apps/register/search", "/ext/finder.jsp"]
# pages of heldout8/9's topic sites with a form that is not a search of the records:
# (link text, path, menu or footer, form kind); every topic site also has "Report a problem"
# and "Unsubscribe" in its footer
FRESH3_EXTRAS = {
    "genealogy": [("Order a certificate", "/certificates", "menu", "order"), ("Credits calculator", "/credits", "footer", "calculator")],
    "patents": [("Fee calculator", "/fees", "menu", "calculator"), ("Watch a patent", "/watch", "footer", "watch")],
    "bicycles": [("Delivery costs", "/shipping", "footer", "calculator"), ("Book a service", "/workshop", "menu", "booking")],
    "boats": [("Marine insurance quote", "/insurance", "footer", "calculator")],
}
FRESH3_COMMON_EXTRAS = [
    ("Report a problem", "/report-a-problem", "footer", "problem"),
    ("Unsubscribe", "/unsubscribe", "footer", "unsubscribe"),
]
# fillers of heldout8/9 (other names than the earlier webs'): (name, host name, category)
FILLERS3 = [
    ("Willow Lane Dental Care", "willowlanedental", "health"),
    ("Cedar Park Medical Centre", "cedarparkmedical", "health"),
    ("Flow State Pilates", "flowstatepilates", "health"),
    ("Holy Trinity Church", "holytrinity-church", "society"),
    ("Brook Hill Primary School", "brookhillprimary", "education"),
    ("Eastgate Adult Learning", "eastgatelearning", "education"),
    ("Carter Electrical Services", "carterelectrical", "local"),
    ("Evergreen Tree Surgeons", "evergreentrees", "local"),
    ("Inkwell Print Shop", "inkwellprint", "local"),
    ("Casa Verde Tapas", "casaverdetapas", "local"),
    ("Whiskers Cat Hotel", "whiskerscathotel", "local"),
    ("Riverside Rowing Club", "riversiderowing", "sports"),
    ("Ridgeway Running Club", "ridgewayrunners", "sports"),
    ("Tom Reilly Illustration", "tomreilly-art", "personal"),
    ("Marion's Quilting Pages", "marionsquilts", "personal"),
    ("Old Mill Heritage Trust", "oldmillheritage", "society"),
    ("Westbrook Food Bank", "westbrookfoodbank", "society"),
    ("The Chess Corner", "chesscorner", "personal"),
]
# fillers of heldout8/9 with a form that is not a search: host name -> (link text, path, kind)
FRESH3_FILLER_FORMS = {
    "casaverdetapas": ("Reservations", "/reservations/", "table"),
    "riversiderowing": ("Learn to row", "/learn-to-row/", "booking"),
    "westbrookfoodbank": ("Give", "/give/", "donate"),
    "holytrinity-church": ("Parish poll", "/poll/", "poll"),
    "flowstatepilates": ("Book a class", "/book/", "booking"),
}
# actions of an application in another path of the same host (booking engines, stock systems)
APP_ACTIONS = ["/engine/availability.aspx", "/app/finder/results", "/webapp/stock/query", "/ibe/search-results", "/sys/catalogue/list"]

PLACEMENTS = ["home", "d1", "d2", "d2", "d3"]
# pages of the fresh webs' topic sites with a form that is not a search of the records:
# (link text, path, menu or footer, form kind)
FRESH_EXTRAS = {
    "courses": [("Exam results", "/exam-results", "footer", "status")],
    "pets": [("Lost & found", "/lost-found", "menu", "report"), ("Donate", "/donate", "menu", "donate")],
    "events": [("Find my booking", "/my-booking", "footer", "status")],
}
FRESH2_EXTRAS = {
    "hotels": [("Manage my booking", "/manage-booking", "footer", "status"), ("Gift vouchers", "/gift-vouchers", "footer", "voucher")],
    "wine": [("Gift vouchers", "/vouchers", "footer", "voucher")],
    "plants": [("Delivery checker", "/delivery", "menu", "delivery"), ("Plant doctor", "/plant-doctor", "footer", "enquiry")],
    "instruments": [("Book a repair", "/repairs", "menu", "booking")],
}
# fillers of heldout6/7 with a booking or donation form: host name -> (link text, path, kind)
FRESH2_FILLER_FORMS = {
    "bellanapoli": ("Book a table", "/book-a-table/", "table"),
    "hillsidetennis": ("Book a court", "/book-a-court/", "booking"),
    "stbrendans": ("Donate", "/donate/", "donate"),
    "lakesideyoga": ("Book a class", "/book/", "booking"),
}
# heldout6/7 replace these two fillers with a council site and a magazine (64 sites as the others)
FRESH2_DROPPED_FILLERS = ("summitaccounting", "brewlabcoffee")
NEWS_HEADLINES = [
    "Our opening hours over the holidays",
    "Welcome to our new manager",
    "Car park resurfacing next month",
    "Thank you for twenty years of support",
    "We are hiring: join the team",
    "Photos from the summer open day",
    "Card payments are back to normal",
    "Meet us at the county show",
]
E = html.escape


def star_disallows(robots: str) -> list[str]:
    """The Disallow rules of robots.txt that apply to every crawler (the "User-agent: *" group;
    heldout10-12 also have a group for a named bad bot, which does not apply)."""
    rules, agents, in_rules = [], [], False
    for line in robots.splitlines():
        key, _, value = line.partition(":")
        key, value = key.strip().lower(), value.strip()
        if key == "user-agent":
            if in_rules:
                agents, in_rules = [], False
            agents.append(value)
        elif key == "disallow":
            in_rules = True
            if "*" in agents:
                rules.append(value)
    return rules


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def germanize(doc: str) -> str:
    """heldout31-33: a page of a German site: its texts, labels, placeholders and buttons in German
    (whole texts from GERMAN, phrases inside longer texts from GERMAN_PHRASES); scripts untouched."""

    def text(m: re.Match) -> str:
        raw = m.group(1)
        core = raw.strip()
        if not core:
            return m.group(0)
        key = html.unescape(core)
        if key in GERMAN:
            return ">" + raw.replace(core, E(GERMAN[key])) + "<"
        out = re.sub(r"^(\d+) [^<]*? found", r"\1 Treffer", raw)
        out = re.sub(r"^No [^<]*? matched your search", "Keine Treffer zu Ihrer Suche", out)
        out = re.sub(r"^(\d+) (.+) \w+\. Sort by: $", r"\1 Einträge: \2. Sortieren nach: ", out)
        for en, de in GERMAN_PHRASES:
            out = out.replace(en, de)
        return ">" + out + "<"

    def phrases(m: re.Match) -> str:
        out = m.group(2)
        for en, de in GERMAN_PHRASES:
            out = out.replace(E(en), E(de))
        return f'{m.group(1)}="{out}"'

    def attr(m: re.Match) -> str:
        key = html.unescape(m.group(2))
        return f'{m.group(1)}="{E(GERMAN[key])}"' if key in GERMAN else m.group(0)

    doc = doc.replace("<html>", '<html lang="de">', 1)
    parts = re.split(r"(<script\b.*?</script>)", doc, flags=re.S)
    for i in range(0, len(parts), 2):
        p = re.sub(r">([^<>]+)<", text, parts[i])
        p = re.sub(r'\b(placeholder|aria-label|title|alt)="([^"]*)"', attr, p)
        p = re.sub(r'(<meta name="description" content)="([^"]*)"', phrases, p)
        p = re.sub(r'(<input type="(?:submit|button|reset)"[^>]*?\bvalue)="([^"]*)"', attr, p)
        parts[i] = p
    return "".join(parts)


@dataclass
class Record:
    rid: int
    title: str
    creator: str
    category: str
    fmt: str
    price: str
    extra: str
    href: str | None = None

    def text(self) -> str:
        return " ".join([self.title, self.creator, self.category, self.fmt, self.price, self.extra]).lower()


@dataclass
class Action:
    """What a form's action URL does when submitted."""

    kind: str  # search | newsletter | login | contact | comment | checkout | cart | track | locator | submission | register
    topic: str  # the topic of the records searched, or an off-topic label
    fields: list = field(default_factory=list)  # (name, role) role: text | category | format | price | other
    records: list = field(default_factory=list)
    item_prefix: str = "/item/"
    noun: str = "result"
    plural: str = "results"
    advanced: str | None = None  # an advanced-search page linked from the results page
    any_value: str | None = None  # a select value that means "any" (heldout16/17's Drupal forms send "All")
    needs_term: bool = False  # heldout23-25: an empty query is refused, not answered with every record
    token: tuple | None = None  # heldout40-42: (name, value) of a hidden CSRF token a submission must carry
    refresh: str | None = None  # heldout40-42: the path a "Searching..." page refreshes to, with the query
    pathq: str | None = None  # heldout43-45: the path prefix a one-box GET search redirects to, the query after it
    needs_cat: str | None = None  # heldout43-45: a required select's label: no records until a category is chosen
    min_word: int = 0  # heldout43-45: words shorter than this are ignored ("0 results" for short words only)


@dataclass
class FormTruth:
    host: str
    action: str  # absolute URL without query
    method: str
    kind: str
    topic: str
    site_kind: str
    pages: set = field(default_factory=set)
    depth: int | None = None
    action_disallowed: bool = False
    description: str = ""


class Site:
    def __init__(self, web: Web, host: str, name: str, kind: str, topic: str) -> None:
        self.web, self.host, self.name, self.kind, self.topic = web, host, name, kind, topic
        self.pages: dict[str, str] = {}
        self.actions: dict[str, Action] = {}
        self.robots: str | None = None
        self.menu: list[tuple[str, str]] = []
        self.footer: list[tuple[str, str]] = []
        self.header_form = ""
        self.footer_form = ""
        self.records: list[Record] = []
        self.item_prefix = "/item/"
        self.style = 0
        # page shape: the development web uses one; held-out webs also two others (a list
        # menu with a sidebar, an old table layout with image links), so that a crawler
        # tuned to the development web's page shapes meets shapes it has not seen
        self.layout = random.Random(f"{web.seed}-{host}-layout").choice([0, 1, 2]) if web.heldout else 0
        if web.fresh:
            # fresh webs add a CMS theme (menu toggle, site search folded in a <details>, social
            # links) and a jump menu (a GET form with a select and "Go"; text links at the bottom)
            self.layout = random.Random(f"{web.seed}-{host}-fresh-layout").choice([0, 1, 2, 3, 3, 4, 4])
        if web.fresh3:
            # heldout8/9 add a mega-menu layout: the menu folded under one button, a utility bar
            self.layout = random.Random(f"{web.seed}-{host}-fresh3-layout").choice([0, 1, 2, 3, 4, 5, 5, 5])
        if web.fresh4:
            self.layout = random.Random(f"{web.seed}-{host}-fresh4-layout").choice([0, 1, 2, 3, 4, 5])
        self.utility_form = ""  # heldout8/9: a locale form in the utility bar of the mega-menu layout
        self.icon_links: dict[str, str] = {}  # heldout23-25: path -> aria-label of a menu link drawn as an icon
        self.map_links: dict[str, str] = {}  # heldout26/27: path -> alt text of a menu entry drawn as an image map

    def url(self, path: str) -> str:
        if path.startswith("http://"):  # heldout8/9: an action on a search sub-host of the site
            return path
        return f"http://{self.host}{path}"

    def add_form(self, path: str, action: str, method: str, kind: str, topic: str, desc: str = "") -> None:
        key = (self.host, action, method)
        truth = self.web.forms.get(key)
        if truth is None:
            truth = FormTruth(self.host, self.url(action), method, kind, topic, self.kind, description=desc)
            self.web.forms[key] = truth
        truth.pages.add(self.url(path))

    def page(self, path: str, title: str, body: str, crumbs: list | None = None, forms: list | None = None) -> None:
        """Render a page with the site's layout; forms: [(action, method, kind, topic)]."""
        nav = " | ".join(f'<a href="{h}">{E(t)}</a>' for t, h in self.menu)
        foot = " &middot; ".join(f'<a href="{h}">{E(t)}</a>' for t, h in self.footer)
        crumb = ""
        if crumbs:
            parts = ['<a href="/">Home</a>'] + [f'<a href="{h}">{E(t)}</a>' for t, h in crumbs[:-1]]
            parts.append(E(crumbs[-1][0]))
            crumb = f'<nav class="breadcrumb">{" &rsaquo; ".join(parts)}</nav>'
        head = (
            f'<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>{E(title)} | {E(self.name)}</title>'
            f'<link rel="stylesheet" href="/static/site.css"></head><body>\n'
        )
        if self.hamburger:
            # heldout43-45: every menu link only in a <details> drawer opened by a "hamburger" icon
            items = "".join(f'<li><a href="{h}">{E(t)}</a></li>' for t, h in self.menu)
            doc = (
                f'{head}<header class="topbar"><details class="nav-drawer"><summary aria-label="Menu" title="Menu">'
                '<svg width="24" height="24" viewBox="0 0 24 24" aria-hidden="true" focusable="false">'
                '<path d="M3 6h18M3 12h18M3 18h18" stroke="currentColor" stroke-width="2"></path></svg></summary>'
                f'<nav aria-label="Main menu"><ul class="drawer-menu">{items}</ul></nav></details>'
                f'<a class="brand" href="/"><img src="/img/logo.svg" alt="{E(self.name)}"></a>{self.header_form}</header>\n'
                f"<main>{crumb}<h1>{E(title)}</h1>\n{body}</main>\n"
                f'<footer>{self.footer_form}<p class="legal">{foot}</p><p>&copy; {self.web.year} {E(self.name)}</p></footer>\n'
                "</body></html>\n"
            )
        elif self.layout == 1:
            items = "".join(f'<li class="nav-item"><a class="nav-link" href="{h}">{E(t)}</a></li>' for t, h in self.menu)
            cols = "".join(f'<li><a href="{h}">{E(t)}</a></li>' for t, h in self.footer)
            ol = ""
            if crumbs:
                ol = (
                    '<ol class="breadcrumb"><li><a href="/">Home</a></li>'
                    + "".join(f'<li><a href="{h}">{E(t)}</a></li>' for t, h in crumbs[:-1])
                    + f'<li class="active">{E(crumbs[-1][0])}</li></ol>'
                )
            doc = (
                f'{head}<div class="navbar"><a class="brand" href="/">{E(self.name)}</a><ul class="nav">{items}</ul></div>\n'
                f'<div class="container"><div class="row"><div class="col-main">{ol}<h2 class="page-title">{E(title)}</h2>\n{body}</div>\n'
                f'<aside class="col-side">{self.header_form}<h4>Quick links</h4><ul>{cols}</ul></aside></div></div>\n'
                f'<div class="footer"><div class="footer-cols"><ul>{cols}</ul></div>{self.footer_form}'
                f"<small>&copy; {self.web.year} {E(self.name)}. All rights reserved.</small></div>\n</body></html>\n"
            )
        elif self.layout == 2:
            side = "<br>\n".join(
                f'<a href="{h}"><img src="/img/nav_{slug(t) or "home"}.gif" alt="{E(t)}" border="0"></a>' for t, h in self.menu
            )
            # the image buttons' text links, repeated at the bottom as such sites do
            text_nav = " | ".join(f'<a href="{h}">{E(t)}</a>' for t, h in self.menu)
            trail = ""
            if crumbs:
                trail = (
                    '<font size="1"><a href="/">Home</a> :: '
                    + " :: ".join([f'<a href="{h}">{E(t)}</a>' for t, h in crumbs[:-1]] + [E(crumbs[-1][0])])
                    + "</font><br>"
                )
            doc = (
                f'{head}<table width="100%" border="0" cellpadding="4"><tr><td colspan="2" bgcolor="#003366">'
                f'<a href="/"><img src="/img/logo.gif" alt="{E(self.name)}" border="0"></a>{self.header_form}</td></tr>\n'
                f'<tr><td valign="top" width="160" bgcolor="#eeeeee">{side}</td>\n<td valign="top">{trail}'
                f'<font size="4"><b>{E(title)}</b></font><br>\n{body}</td></tr>\n'
                f'<tr><td colspan="2" align="center"><font size="1">{text_nav}<br>{foot}<br>{self.footer_form}'
                f"Copyright &copy; {self.web.year} {E(self.name)}</font></td></tr></table>\n</body></html>\n"
            )
        elif self.layout == 3:
            items = "".join(f'<li class="menu-item"><a href="{h}"><span>{E(t)}</span></a></li>' for t, h in self.menu)
            cols = "".join(f'<li><a href="{h}">{E(t)}</a></li>' for t, h in self.footer)
            search = f'<details class="site-search"><summary>Search</summary>{self.header_form}</details>' if self.header_form else ""
            trail = ""
            if crumbs:
                trail = (
                    '<ul class="breadcrumbs" aria-label="You are here"><li><a href="/">Home</a></li>'
                    + "".join(f'<li><a href="{h}">{E(t)}</a></li>' for t, h in crumbs[:-1])
                    + f'<li aria-current="page">{E(crumbs[-1][0])}</li></ul>'
                )
            social = "".join(
                f'<li><a href="http://www.{net}.test/{slug(self.name)}">{net.title()}</a></li>' for net in ("facebook", "instagram")
            )
            doc = (
                f'{head}<a class="skip-link" href="#content">Skip to main content</a>\n<header class="site-header">'
                f'<a class="custom-logo-link" href="/"><img src="/img/logo.svg" alt="{E(self.name)} home"></a>'
                f'<button class="menu-toggle" aria-controls="primary-menu" aria-expanded="false">Menu</button>'
                f'<nav id="site-navigation" aria-label="Main"><ul id="primary-menu">{items}</ul></nav>{search}</header>\n'
                f'<main id="content"><article>{trail}<h1 class="entry-title">{E(title)}</h1>\n<div class="entry-content">{body}</div></article></main>\n'
                f'<footer class="site-footer"><section class="widget"><h2 class="widget-title">Quick links</h2><ul>{cols}</ul></section>'
                f'<section class="widget"><h2 class="widget-title">Follow us</h2><ul>{social}</ul></section>{self.footer_form}'
                f'<p class="site-info">&copy; {self.web.year} {E(self.name)}</p></footer>\n</body></html>\n'
            )
        elif self.layout == 5:
            items = "".join(f'<li><a role="menuitem" href="{h}">{E(t)}</a></li>' for t, h in self.menu[1:])
            cols = "".join(f'<li><a href="{h}">{E(t)}</a></li>' for t, h in self.footer)
            trail = ""
            if crumbs:
                trail = (
                    '<nav aria-label="Breadcrumb"><ol class="crumbs"><li><a href="/">Home</a></li>'
                    + "".join(f'<li><a href="{h}">{E(t)}</a></li>' for t, h in crumbs[:-1])
                    + f'<li><span aria-current="page">{E(crumbs[-1][0])}</span></li></ol></nav>'
                )
            doc = (
                f'{head}<div class="utility-bar"><a href="/login">Account</a> <a href="/contact">Help</a>{self.utility_form}</div>\n'
                f'<header class="masthead"><a class="brand" href="/">{E(self.name)}</a>{self.header_form}\n'
                f'<nav class="mega" aria-label="Primary"><button class="mega-toggle" aria-haspopup="true" aria-expanded="false">Menu</button>'
                f'<div class="mega-panel" hidden><ul role="menu">{items}</ul></div></nav></header>\n'
                f'<div class="layout"><main>{trail}<h1>{E(title)}</h1>\n{body}</main></div>\n'
                f'<footer class="sitemap"><div class="col"><h3>Site map</h3><ul>{cols}</ul></div>{self.footer_form}'
                f'<p class="legal">&copy; {self.web.year} {E(self.name)}</p></footer>\n</body></html>\n'
            )
        elif self.layout == 4:
            opts = "".join(f'<option value="{h}">{E(t)}</option>' for t, h in self.menu)
            jump = (
                '<form class="jumpmenu" name="jump" action="/go" method="get"><label>Go to: <select name="page">'
                f'<option value="">Choose a page...</option>{opts}</select></label> <input type="submit" value="Go"></form>'
            )
            text_nav = " | ".join(f'<a href="{h}">{E(t)}</a>' for t, h in self.menu + self.footer)
            doc = (
                f'{head}<div id="top"><span class="sitename"><a href="/">{E(self.name)}</a></span>{jump}</div>\n'
                f'<div id="wrap"><div id="content"><h1>{E(title)}</h1>\n{body}</div>\n'
                f'<div id="right">{self.header_form}</div></div>\n'
                f'<div id="bottom"><p class="textnav">{text_nav}</p>{self.footer_form}<p>&copy; {self.web.year} {E(self.name)}</p></div>\n'
                f"</body></html>\n"
            )
            self.actions.setdefault("/go", Action("navigation", "none"))
            self.add_form(path, "/go", "get", "navigation", "none")
        else:
            doc = (
                f'{head}<header><div class="logo"><a href="/">{E(self.name)}</a></div>{self.header_form}'
                f'<nav class="menu">{nav}</nav></header>\n{crumb}\n<main>\n<h1>{E(title)}</h1>\n{body}\n</main>\n'
                f"<footer>{self.footer_form}<p>{foot}</p><p>&copy; {self.web.year} {E(self.name)}</p></footer>\n"
                f"</body></html>\n"
            )
        for href, label in self.icon_links.items():
            # heldout23-25: the link is a magnifier icon; its name is only in aria-label
            icon = (
                f'<a href="{href}" class="icon-link search-toggle" aria-label="{E(label)}">'
                '<svg width="20" height="20" viewBox="0 0 20 20" aria-hidden="true" focusable="false">'
                '<circle cx="8" cy="8" r="6" fill="none" stroke="currentColor" stroke-width="2"></circle>'
                '<line x1="13" y1="13" x2="19" y2="19" stroke="currentColor" stroke-width="2"></line></svg></a>'
            )
            doc = re.sub(
                rf'<a (?:class="[^"]*" |role="menuitem" )?href="{re.escape(href)}">(?:<span>)?{re.escape(E(label))}(?:</span>)?</a>',
                icon,
                doc,
            )
        for k, (href, label) in enumerate(self.map_links.items()):
            # heldout26/27: the menu entry is a sliced picture; the link is an <area> of its image map
            mid = f"navmap{k + 1}"
            area = (
                f'<img src="/img/nav-{slug(label)}.gif" width="110" height="26" alt="" usemap="#{mid}" border="0">'
                f'<map name="{mid}" id="{mid}"><area shape="rect" coords="0,0,110,26" href="{href}" alt="{E(label)}" title="{E(label)}"></map>'
            )
            doc = re.sub(
                rf'<a (?:class="[^"]*" |role="menuitem" )?href="{re.escape(href)}">(?:<span>)?{re.escape(E(label))}(?:</span>)?</a>',
                area,
                doc,
            )
        self.pages[path] = doc
        for action, method, kind, topic in (forms or []) + self.layout_forms:
            self.add_form(path, action, method, kind, topic)

    layout_forms: list = []
    hamburger: bool = False  # heldout43-45: the navigation only in a hamburger <details> drawer


class Web:
    def __init__(self, name: str) -> None:
        if name not in WEBS:
            raise KeyError(name)
        self.name = name
        self.seed, self.topic, self.topics, self.heldout = WEBS[name]
        self.fresh17 = name in FRESH17  # heldout46-48 keep heldout43-45's construction; SHAPES17 on the scored sites
        self.fresh16 = name in FRESH16 or self.fresh17  # heldout43-45 keep heldout40-42's construction; SHAPES16 on the scored sites
        self.fresh15 = name in FRESH15 or self.fresh16  # heldout40-42 keep heldout37-39's construction; SHAPES15 on the scored sites
        self.fresh14 = name in FRESH14 or self.fresh15  # heldout37-39 keep heldout34-36's construction; SHAPES14 on the scored sites
        self.fresh13 = name in FRESH13 or self.fresh14  # heldout34-36 keep heldout31-33's shapes (fresh12) but four, and add their own
        self.fresh12 = name in FRESH12 or self.fresh13  # heldout31-33 keep heldout28-30's shapes (fresh11) but two, and add their own
        self.fresh11 = name in FRESH11 or self.fresh12  # heldout28-30 keep heldout26/27's shapes (fresh10) and add their own
        self.fresh10 = name in FRESH10 or self.fresh11  # heldout26/27 keep heldout23-25's shapes (fresh9) but two, and add their own
        self.fresh9 = name in FRESH9 or self.fresh10  # heldout23-25 keep heldout21/22's shapes (fresh8) but two, and add their own
        self.fresh8 = name in FRESH8 or self.fresh9  # heldout21/22 keep heldout18-20's shapes (fresh7) and add their own
        self.fresh7 = name in FRESH7 or self.fresh8  # heldout18-20 keep heldout16/17's shapes (fresh6) and add their own
        self.fresh6 = name in FRESH6 or self.fresh7  # heldout16/17 keep heldout13-15's shapes (fresh5) and add their own
        self.fresh = name in FRESH or name in FRESH2 or name in FRESH3 or name in FRESH4 or name in FRESH5 or self.fresh6
        self.fresh2 = name in FRESH2 or name in FRESH3 or name in FRESH4 or name in FRESH5 or self.fresh6
        self.fresh3 = name in FRESH3
        self.fresh4 = name in FRESH4 or name in FRESH5 or self.fresh6  # heldout13-15 keep heldout10-12's shapes
        self.fresh5 = name in FRESH5 or self.fresh6
        self.traits: dict[str, dict] = {}  # heldout6/7: per topic site, which new shapes it has
        self.rng = random.Random(self.seed)
        self.year = 2026
        self.sites: dict[str, Site] = {}
        self.forms: dict[tuple, FormTruth] = {}
        self.seeds: list[str] = []
        self.dead_sites: dict[str, list] = {}
        self.app_sites: list[Site] = []  # heldout8/9: search sub-hosts of topic sites
        self.vendor_sites: dict[str, Site] = {}  # heldout18-20: search platforms shared by several sites
        self.german_hosts: set[str] = set()  # heldout31-33: sites written in German
        self._build()

    # ------------------------------------------------------------------ helpers
    def renamed(self, host: str, name: str) -> tuple[str, str]:
        """heldout8/9 give the off-topic sites and portals other names than the earlier webs."""
        if self.fresh13:
            return FRESH13_NAMES.get(host) or FRESH13_OFFTOPIC_NAMES.get(host, (host, name))
        if self.fresh12:
            return FRESH12_NAMES.get(host) or FRESH12_OFFTOPIC_NAMES.get(host, (host, name))
        if self.fresh11:
            return FRESH11_NAMES.get(host) or FRESH11_OFFTOPIC_NAMES.get(host, (host, name))
        if self.fresh10:
            return FRESH10_NAMES.get(host) or FRESH10_OFFTOPIC_NAMES.get(host, (host, name))
        if self.fresh9:
            return FRESH9_NAMES.get(host) or FRESH9_OFFTOPIC_NAMES.get(host, (host, name))
        if self.fresh8:
            return FRESH8_NAMES.get(host) or FRESH8_OFFTOPIC_NAMES.get(host, (host, name))
        if self.fresh7:
            return FRESH7_NAMES.get(host) or FRESH7_OFFTOPIC_NAMES.get(host, (host, name))
        if self.fresh6:
            return FRESH6_NAMES.get(host) or FRESH6_OFFTOPIC_NAMES.get(host, (host, name))
        if self.fresh5:
            return FRESH5_NAMES.get(host, (host, name))
        if self.fresh4:
            return FRESH4_NAMES.get(host, (host, name))
        return FRESH3_NAMES.get(host, (host, name)) if self.fresh3 else (host, name)

    def pool(self, topic: str, key: str) -> list[str]:
        t = TOPICS[topic]
        if self.fresh13:  # only the first lists and heldout34-36's own
            return list(t[key]) + FRESH13_LINKS.get(key, {}).get(topic, [])
        if self.fresh12:  # only the first lists and heldout31-33's own
            return list(t[key]) + FRESH12_LINKS.get(key, {}).get(topic, [])
        if self.fresh11:  # only the first lists and heldout28-30's own
            return list(t[key]) + FRESH11_LINKS.get(key, {}).get(topic, [])
        if self.fresh10:  # only the first lists and heldout26/27's own
            return list(t[key]) + FRESH10_LINKS.get(key, {}).get(topic, [])
        if self.fresh9:  # only the first lists and heldout23-25's own
            return list(t[key]) + FRESH9_LINKS.get(key, {}).get(topic, [])
        if self.fresh8:  # only the first lists and heldout21/22's own
            return list(t[key]) + FRESH8_LINKS.get(key, {}).get(topic, [])
        if self.fresh7:  # only the first lists and heldout18-20's own
            return list(t[key]) + FRESH7_LINKS.get(key, {}).get(topic, [])
        if self.fresh6:  # only the first lists and heldout16/17's own
            return list(t[key]) + FRESH6_LINKS.get(key, {}).get(topic, [])
        if self.fresh5:  # only the first lists and heldout13-15's own
            return list(t[key]) + FRESH5_LINKS.get(key, {}).get(topic, [])
        if self.fresh4:  # only the first lists and heldout10-12's own
            return list(t[key]) + FRESH4_LINKS.get(key, {}).get(topic, [])
        if self.fresh3:  # only the first lists and heldout8/9's own (the new topics have their own lists)
            return list(t[key]) + FRESH3_LINKS.get(key, {}).get(topic, [])
        extra = t.get("heldout_" + key, []) if self.heldout else []
        if self.fresh:
            extra = list(extra) + FRESH_LINKS.get(key, {}).get(topic, [])
        if self.fresh2:
            extra = list(extra) + FRESH2_LINKS.get(key, {}).get(topic, [])
        return list(t[key]) + list(extra)

    def records(self, topic: str, n: int, rng: random.Random) -> list[Record]:
        t = TOPICS[topic]
        out = []
        cats = rng.sample(t["categories"], 6)
        for i in range(n):
            title = f"{rng.choice(t['title_a'])} {rng.choice(t['title_b'])}"
            if (self.fresh3 or self.fresh4) and t.get("record_words"):
                out.append(
                    Record(
                        rid=1000 + i * 7 + rng.randrange(7),
                        title=title,
                        creator=rng.choice(t["creators"]),
                        category=rng.choice(cats),
                        fmt=rng.choice(t["formats"]),
                        price=rng.choice(t["prices"]),
                        extra=f"{t['noun']} {t['record_words']} {t['id_label']} {rng.randrange(100, 999)}",
                    )
                )
                continue
            out.append(
                Record(
                    rid=1000 + i * 7 + rng.randrange(7),
                    title=title,
                    creator=rng.choice(t["creators"]),
                    category=rng.choice(cats),
                    fmt=rng.choice(t["formats"]),
                    price=rng.choice(t["prices"]),
                    extra=f"{t['noun']} {t['id_label']} {rng.randrange(100, 999)}",
                )
            )
        return out

    # ------------------------------------------------------------------ build
    def _build(self) -> None:
        rng = self.rng
        for topic in self.topics:
            names = list(TOPICS[topic]["sites"])
            rng.shuffle(names)
            placements = list(PLACEMENTS)
            rng.shuffle(placements)
            cgi_index = rng.choice([i for i, p in enumerate(placements) if p in ("d1", "d2")])
            self.dead_sites[topic] = [(name, f"www.{host}.test") for name, host in names[5:7]]  # listed, gone
            if self.fresh13 and topic == self.topic:
                # heldout34-36: the robots-disallowed search is the "Advanced" one (the second depth-2 site)
                cgi_index = [i for i, p in enumerate(placements) if p == "d2"][-1]
            if self.fresh12 and not self.fresh13:
                # heldout31-33: one live site of the scored topic (never the "Advanced" one) and one of
                # another topic are German
                grng = random.Random(f"{self.seed}-german12-{topic}")
                if topic == self.topic:
                    d2s = [i for i, p in enumerate(placements) if p == "d2"]
                    vendor = next((i for i in d2s if i != cgi_index), d2s[0])
                    adv = next(i for i in d2s if i != vendor)
                    g = grng.choice([i for i in range(5) if i != adv])
                    names[g] = TOPICS[topic]["german_site"]
                    self.german_hosts.add(f"www.{names[g][1]}.test")
                elif topic == GERMAN12_OTHER[self.name][0]:
                    g = grng.choice([i for i in range(5) if i != cgi_index])
                    names[g] = GERMAN12_OTHER[self.name][1:]
                    self.german_hosts.add(f"www.{names[g][1]}.test")
            if self.fresh7:
                self._plan_traits7(topic, [f"www.{host}.test" for _name, host in names[:5]], placements, cgi_index)
            elif self.fresh6:
                self._plan_traits6(topic, [f"www.{host}.test" for _name, host in names[:5]], placements, cgi_index)
            elif self.fresh5:
                self._plan_traits5(topic, [f"www.{host}.test" for _name, host in names[:5]], placements, cgi_index)
            elif self.fresh4:
                self._plan_traits4(topic, [f"www.{host}.test" for _name, host in names[:5]], placements, cgi_index)
            elif self.fresh3:
                self._plan_traits3(topic, [f"www.{host}.test" for _name, host in names[:5]], placements, cgi_index)
            elif self.fresh2:
                self._plan_traits(topic, [f"www.{host}.test" for _name, host in names[:5]], placements, cgi_index)
            for i, (name, host) in enumerate(names[:5]):
                self._topic_site(topic, name, f"www.{host}.test", placements[i], cgi=(i == cgi_index), submission=(i in (1, 3)))
            blog_name, blog_host, blog_about = TOPICS[topic]["blog"]
            self._topic_blog(topic, blog_name, f"{blog_host}.blog.test", blog_about)
        self._docs_site()
        self._news_site()
        self._store_site()
        self._forum_site()
        self._weather_site()
        if self.fresh5:
            self._volunteer_site()
            self._tenants_site()
            if self.fresh11:  # heldout28-30: a near-topic site with its own searches in place of the magazine
                self._neartopic_site()
            else:
                self._consumer_site()
        elif self.fresh4:
            self._hospital_site()
            self._lawfirm_site()
            self._tourism_site()
        elif self.fresh3:
            self._library_site()
            self._university_site()
        elif self.fresh2:
            self._council_site()
            self._magazine_site()
        self._filler_sites()
        self._interlink()
        if self.fresh7:  # the renamed sites' own words for themselves
            for host, _name in (
                FRESH13_NAMES
                if self.fresh13
                else FRESH12_NAMES
                if self.fresh12
                else FRESH11_NAMES
                if self.fresh11
                else FRESH10_NAMES
                if self.fresh10
                else FRESH9_NAMES
                if self.fresh9
                else FRESH8_NAMES
                if self.fresh8
                else FRESH7_NAMES
            ).values():
                site = self.sites[host]
                for path, doc in site.pages.items():
                    if doc is None:
                        continue
                    for old, new in (
                        FRESH13_WORDS
                        if self.fresh13
                        else FRESH12_WORDS
                        if self.fresh12
                        else FRESH11_WORDS
                        if self.fresh11
                        else FRESH10_WORDS
                        if self.fresh10
                        else FRESH9_WORDS
                        if self.fresh9
                        else FRESH8_WORDS
                        if self.fresh8
                        else FRESH7_WORDS
                    ):
                        doc = doc.replace(old, new)
                    site.pages[path] = doc
        elif self.fresh6:  # the renamed sites' own words for themselves
            words = [
                ("Lumen", "Corvid"),
                ("Daily Ledger", "West Riding Post"),
                ("Ledger", "Post"),
                ("Ironworks Supply Co.", "Toolbarn DIY"),
            ]
            words += [("Ironworks", "Toolbarn"), ("Backyard Growers", "Plotholders"), ("Metro Weather", "Skyline Met")]
            words += [("Tuesday", "Weekend")]
            for host, _name in FRESH6_NAMES.values():
                site = self.sites[host]
                for path, doc in site.pages.items():
                    if doc is None:
                        continue
                    for old, new in words:
                        doc = doc.replace(old, new)
                    site.pages[path] = doc
        elif self.fresh5:  # the renamed sites' own words for themselves
            words = [
                ("Lumen", "Marlin"),
                ("Daily Ledger", "Northmoor Gazette"),
                ("Ledger", "Gazette"),
                ("Ironworks Supply Co.", "Cornerstone DIY"),
            ]
            words += [("Ironworks", "Cornerstone"), ("Backyard Growers", "Green Fingers Chat"), ("Metro Weather", "Fairweather Forecast")]
            words += [("Tuesday", "Monday")]
            for host, _name in FRESH5_NAMES.values():
                site = self.sites[host]
                for path, doc in site.pages.items():
                    if doc is None:
                        continue
                    for old, new in words:
                        doc = doc.replace(old, new)
                    site.pages[path] = doc
        elif self.fresh4:  # the renamed sites' own words for themselves
            words = [
                ("Lumen", "Tessera"),
                ("Daily Ledger", "Evening Herald"),
                ("Ledger", "Herald"),
                ("Ironworks Supply Co.", "Keystone Hardware"),
            ]
            words += [
                ("Ironworks", "Keystone"),
                ("Backyard Growers", "Veggie Patch"),
                ("Metro Weather", "Clear Skies Weather"),
                ("Tuesday", "Sunday"),
            ]
            for host, _name in FRESH4_NAMES.values():
                site = self.sites[host]
                for path, doc in site.pages.items():
                    if doc is None:
                        continue
                    for old, new in words:
                        doc = doc.replace(old, new)
                    site.pages[path] = doc
        if self.fresh3:  # the renamed sites' own words for themselves
            words = [("Lumen", "Quill"), ("Daily Ledger", "Morning Courier"), ("Ledger", "Courier"), ("Ironworks", "Anvil")]
            words += [("Backyard Growers", "Allotment Talk"), ("Metro Weather", "Skycast Weather"), ("Tuesday", "Friday")]
            for host, _name in FRESH3_NAMES.values():
                site = self.sites[host]
                for path, doc in site.pages.items():
                    if doc is None:
                        continue
                    for old, new in words:
                        doc = doc.replace(old, new)
                    site.pages[path] = doc
        for app in self.app_sites:  # search sub-hosts: not listed anywhere, reached by submitting a form
            self.sites[app.host] = app
        for host in sorted(self.german_hosts):  # heldout31-33: the German sites' pages
            site = self.sites[host]
            for path, doc in site.pages.items():
                if doc is not None:
                    site.pages[path] = germanize(doc)
        self._compute_depths()

    # ------------------------------------------------------------------ forms
    def search_form(
        self, site: Site, topic: str, action: str, method: str, style: int, rng: random.Random, compact: bool = False
    ) -> tuple[str, list]:
        if style >= 19:
            return self._fresh7_search_form(topic, action, method, style, rng, compact)
        if style >= 17:
            return self._fresh6_search_form(topic, action, method, style, rng, compact)
        if style >= 14:
            return self._fresh5_search_form(topic, action, method, style, rng, compact)
        if style >= 12:
            return self._fresh4_search_form(topic, action, method, style, rng, compact)
        if style >= 9:
            return self._fresh3_search_form(topic, action, method, style, rng, compact)
        if style >= 7:
            return self._fresh2_search_form(topic, action, method, style, rng, compact)
        if style >= 4:
            return self._fresh_search_form(topic, action, method, style, rng, compact)
        t = TOPICS[topic]
        fields: list = []
        parts: list[str] = []
        texts = rng.sample(t["text_fields"], 1 if compact else rng.choice([1, 2, 3]))
        if compact and rng.random() < 0.5:
            texts = [(rng.choice(["q", "k", "kw", "term", "s", "search"]), "Search")]
        ph = rng.choice(t["placeholders"])
        for name, label in texts:
            fields.append((name, "text"))
            fid = f"f-{name}"
            if style == 0:
                parts.append(f'<label for="{fid}">{E(label)}</label> <input type="search" id="{fid}" name="{name}" placeholder="{E(ph)}">')
            elif style == 1:
                parts.append(f'<tr><td>{E(label)}:</td><td><input type="text" name="{name}" size="30"></td></tr>')
            elif style == 2:
                parts.append(f'<p><label>{E(label)}<br><input type="text" name="{name}" value=""></label></p>')
            else:
                parts.append(
                    f'<input type="text" name="{name}" placeholder="{E(label if rng.random() < 0.5 else ph)}" aria-label="{E(label)}">'
                )
        if not compact:
            sel = [
                (
                    "category",
                    rng.choice(["genre", "cat", "category", "c", "dept", "section"]),
                    t["categories"][:8],
                    rng.choice(["All", "Any", "All categories"]),
                ),
                ("format", rng.choice(["format", "fmt", "type", "condition", "class"]), t["formats"], "Any"),
                ("price", rng.choice(["price", "pr", "price_range", "range"]), t["prices"], "Any price"),
            ]
            for role, name, options, first in rng.sample(sel, rng.choice([1, 2, 3])):
                fields.append((name, role))
                opts = f'<option value="">{E(first)}</option>' + "".join(f'<option value="{slug(o)}">{E(o)}</option>' for o in options)
                label = {"category": rng.choice(["Genre", "Category", "Department"]), "format": "Format", "price": "Price range"}[role]
                if topic == "jobs":
                    label = {"category": "Category", "format": "Job type", "price": "Salary"}[role]
                if "labels" in t:
                    label = t["labels"][role]
                if style == 1:
                    parts.append(f'<tr><td>{label}:</td><td><select name="{name}">{opts}</select></td></tr>')
                else:
                    parts.append(f'<label>{label} <select name="{name}">{opts}</select></label>')
            if rng.random() < 0.5:
                fields.append(("sort", "other"))
                parts.append(
                    '<label>Sort by <select name="sort"><option value="rel">Relevance</option>'
                    '<option value="new">Newest</option><option value="price">Price</option></select></label>'
                )
        hidden = rng.choice(
            [[], [("sid", f"{rng.randrange(16**8):08x}")], [("lang", "en"), ("page", "1")], [("mode", "adv")], [("src", "hdr")]]
        )
        hid = "".join(f'<input type="hidden" name="{n}" value="{v}">' for n, v in hidden)
        submit = rng.choice(
            [
                '<input type="submit" value="Search">',
                '<button type="submit">Search</button>',
                '<input type="submit" value="Find">',
                '<input type="submit" value="Go">',
                '<input type="image" src="/img/btn_search.gif" alt="Search">',
                f'<button type="submit">Find {E(t["plural"])}</button>',
            ]
        )
        fname = rng.choice(["search", "advsearch", "searchform", "frm1", "quick_find"])
        if style == 1:
            inner = f'<table>{"".join(parts)}<tr><td></td><td>{submit} <input type="reset" value="Clear"></td></tr></table>{hid}'
        elif style == 2:
            inner = f"<fieldset><legend>{E(rng.choice(['Advanced search', 'Search', 'Refine your search']))}</legend>{''.join(parts)}{hid}<p>{submit}</p></fieldset>"
        else:
            inner = f"{''.join(parts)}{hid} {submit}"
        role = ' role="search"' if style == 0 else ""
        return (f'<form name="{fname}" action="{action}" method="{method}"{role} class="search">{inner}</form>', fields)

    def _fresh_search_form(self, topic: str, action: str, method: str, style: int, rng: random.Random, compact: bool) -> tuple[str, list]:
        """Search forms of the fresh webs, written in ways the other webs' forms are not:
        4 = an icon-only submit button, no labels (title/aria-label only), radio buttons and a
        checkbox; 5 = a definition list with a multiple select and a "Show ..." button;
        6 = a Bootstrap-like grid with date inputs, a datalist and a long button text."""
        t = TOPICS[topic]
        labels = t.get("labels", {"category": "Category", "format": "Format", "price": "Price range"})
        fields: list = []
        texts = rng.sample(t["text_fields"], 1 if compact else rng.choice([1, 2]))
        ph = rng.choice(t["placeholders"])
        cats = t["categories"][:8]
        icon = (
            '<svg aria-hidden="true" width="16" height="16" viewBox="0 0 16 16"><circle cx="7" cy="7" r="5"/><path d="M11 11l4 4"/></svg>'
        )
        if style == 4:
            parts = []
            for name, label in texts:
                fields.append((name, "text"))
                parts.append(f'<input type="text" name="{name}" title="{E(label)}" placeholder="{E(ph)}" autocomplete="off">')
            if not compact:
                fields.append(("fmt", "format"))
                parts.append(
                    f'<span class="radios">{E(labels["format"])}: '
                    + "".join(f'<input type="radio" name="fmt" value="{slug(o)}" id="fmt-{slug(o)}"> {E(o)} ' for o in t["formats"])
                    + "</span>"
                )
                fields.append(("open", "other"))
                parts.append('<input type="checkbox" name="open" value="1" checked> Only show available')
            submit = f'<button type="submit" class="btn-icon" aria-label="Search">{icon}</button>'
            return (f'<form action="{action}" method="{method}" class="finder">{"".join(parts)}{submit}</form>', fields)
        if style == 5:
            rows = []
            for name, label in texts:
                fields.append((name, "text"))
                rows.append(f'<dt><label for="x-{name}">{E(label)}</label></dt><dd><input id="x-{name}" name="{name}" size="24"></dd>')
            if not compact:
                fields.append(("area", "category"))
                opts = "".join(f'<option value="{slug(o)}">{E(o)}</option>' for o in cats)
                rows.append(
                    f'<dt><label for="x-area">{E(labels["category"])}</label></dt><dd><select id="x-area" name="area" multiple size="4">{opts}</select></dd>'
                )
                fields.append(("cost", "price"))
                opts = '<option value="">Any</option>' + "".join(f'<option value="{slug(o)}">{E(o)}</option>' for o in t["prices"])
                rows.append(
                    f'<dt><label for="x-cost">{E(labels["price"])}</label></dt><dd><select id="x-cost" name="cost">{opts}</select></dd>'
                )
            hid = f'<input type="hidden" name="token" value="{rng.randrange(16**10):010x}">'
            btn = rng.choice([f"Show {t['plural']}", "Show results", "Look up", "Apply"])
            return (
                f'<form action="{action}" method="{method}" id="lookup"><dl>{"".join(rows)}</dl>{hid}<input type="submit" name="go" value="{E(btn)}"></form>',
                fields,
            )
        groups = []
        for name, label in texts:
            fields.append((name, "text"))
            dl = "".join(f'<option value="{E(c)}">' for c in cats[:5])
            groups.append(
                f'<div class="form-group col-md-4"><label class="control-label" for="g-{name}">{E(label)}</label>'
                f'<input class="form-control" type="text" id="g-{name}" name="{name}" list="dl-{name}" placeholder="{E(ph)}"><datalist id="dl-{name}">{dl}</datalist></div>'
            )
        if not compact:
            fields += [("from", "other"), ("to", "other")]
            groups.append(
                '<div class="form-group col-md-2"><label class="control-label" for="g-from">From</label><input class="form-control" type="date" id="g-from" name="from"></div>'
                '<div class="form-group col-md-2"><label class="control-label" for="g-to">To</label><input class="form-control" type="date" id="g-to" name="to"></div>'
            )
            fields.append(("cat", "category"))
            opts = '<option value="">All</option>' + "".join(f'<option value="{slug(o)}">{E(o)}</option>' for o in cats)
            groups.append(
                f'<div class="form-group col-md-3"><label class="control-label" for="g-cat">{E(labels["category"])}</label><select class="form-control" id="g-cat" name="cat">{opts}</select></div>'
            )
        btn = rng.choice([f"Search the {t['noun']} catalogue", f"Find {t['plural']}", "Search now"])
        return (
            f'<form action="{action}" method="{method}" class="form-inline row">{"".join(groups)}'
            f'<div class="form-group col-md-12"><button type="submit" class="btn btn-primary">{E(btn)}</button></div></form>',
            fields,
        )

    def newsletter(self, site: Site, rng: random.Random) -> tuple[str, tuple]:
        action = rng.choice(["/newsletter/subscribe", "/subscribe", "/cgi-bin/mail.pl", "/list/join"])
        method = rng.choice(["post", "post", "get"])
        site.actions[action] = Action("newsletter", "none")
        inp = rng.choice(
            [
                '<input type="email" name="email" placeholder="Your email address">',
                '<input type="text" name="em" placeholder="Enter your email">',
                '<input type="text" name="email" size="20">',
            ]
        )
        btn = rng.choice(["Subscribe", "Sign up", "Go", "Join"])
        head = rng.choice(["Get our newsletter", "Stay in touch", "New arrivals by email", "Sign up for deals"])
        return (
            f'<form class="newsletter" action="{action}" method="{method}"><b>{head}</b> {inp} <input type="submit" value="{btn}"></form>',
            (action, method, "newsletter", "none"),
        )

    def _simple_form(self, site: Site, path: str, kind: str, rng: random.Random, topic: str = "none") -> tuple[str, tuple]:
        t = TOPICS.get(site.topic)
        wish = f"Find a {t['noun']} for me" if t else "Request a quote"
        interests = t["categories"][:2] if t else ["News", "Events"]
        if kind == "login":
            action, method = rng.choice(["/account/login", "/login.php", "/signin", "/user/auth"]), "post"
            h = (
                f'<form action="{action}" method="post" id="login"><input type="hidden" name="csrf_token" value="{rng.randrange(10**9)}">'
                f'<label>{rng.choice(["Username", "Email", "Email or username"])} <input type="text" name="{rng.choice(["username", "user", "login", "email"])}"></label> '
                f'<label>Password <input type="password" name="password"></label> '
                f'<label><input type="checkbox" name="remember" value="1"> Remember me</label> '
                f'<input type="submit" value="{rng.choice(["Log in", "Sign in", "Login"])}"></form>'
                f'<p><a href="/account/forgot">Forgot your password?</a></p>'
            )
        elif kind == "register":
            action, method = "/account/register", "post"
            h = (
                f'<form action="{action}" method="post"><label>Name <input type="text" name="name"></label> '
                f'<label>Email <input type="text" name="email"></label> <label>Password <input type="password" name="pw"></label> '
                f'<label>Interests <select name="interest"><option>{E(interests[0])}</option><option>{E(interests[1])}</option></select></label>'
                f'<input type="submit" value="Create account"></form>'
            )
        elif kind == "contact":
            action, method = rng.choice(["/contact/send", "/cgi-bin/formmail.pl", "/contact.php"]), "post"
            h = (
                f'<form action="{action}" method="post"><label>Your name <input type="text" name="name"></label> '
                f'<label>Email <input type="text" name="email"></label> '
                f'<label>Subject <select name="subject"><option>General question</option><option>Order status</option>'
                f"<option>{E(wish)}</option></select></label> "
                f'<label>Message <textarea name="message" rows="5"></textarea></label>'
                f'<input type="hidden" name="recipient" value="info@{site.host}"><input type="submit" value="Send"></form>'
            )
        elif kind == "comment":
            action, method = rng.choice(["/comments/post", "/wp-comments-post.php", "/news/comment"]), "post"
            h = (
                f'<h3>Leave a comment</h3><form action="{action}" method="post"><input type="hidden" name="post_id" value="{rng.randrange(100, 999)}">'
                f'<label>Name <input type="text" name="author"></label> <label>Email <input type="text" name="email"></label> '
                f'<label>Website <input type="text" name="url"></label> <textarea name="comment" rows="4"></textarea>'
                f'<input type="submit" value="Post comment"></form>'
            )
        elif kind == "checkout":
            action, method = rng.choice(["/checkout/place-order", "/cart/checkout", "/order.php"]), "post"
            h = (
                f'<form action="{action}" method="post"><label>Full name <input type="text" name="fullname"></label> '
                f'<label>Street address <input type="text" name="address"></label> <label>City <input type="text" name="city"></label> '
                f'<label>State <select name="state"><option>CA</option><option>NY</option><option>TX</option><option>WA</option></select></label> '
                f'<label>ZIP <input type="text" name="zip"></label> <label>Card number <input type="text" name="cc"></label> '
                f'<input type="submit" value="Place order"></form>'
            )
        elif kind == "track":
            action, method = rng.choice(["/orders/track", "/order-status"]), "get"
            h = (
                f'<form action="{action}" method="get"><label>Order number <input type="text" name="order" placeholder="e.g. 10045"></label> '
                f'<label>Email or ZIP <input type="text" name="verify"></label> <input type="submit" value="Track order"></form>'
            )
        elif kind == "locator":
            action, method = rng.choice(["/stores/find", "/locations"]), "get"
            h = (
                f'<form action="{action}" method="get"><label>Find a store near you <input type="text" name="zip" placeholder="ZIP code"></label> '
                f'<select name="radius"><option>10 miles</option><option>25 miles</option><option>50 miles</option></select> '
                f'<input type="submit" value="Find a store"></form>'
            )
        elif kind == "submission":
            action, method, h = self._submission_form(site, rng)
        else:
            raise ValueError(kind)
        site.actions[action] = Action(kind, topic if kind == "submission" else "none")
        return h, (action, method, kind, site.actions[action].topic)

    def _submission_form(self, site: Site, rng: random.Random) -> tuple[str, str, str]:
        """A form full of the topic's words that is not a search: sell/post/list/alert."""
        t, topic = TOPICS[site.topic], site.topic
        cats = "".join(f"<option>{E(c)}</option>" for c in t["categories"][:6])
        fmts = "".join(f"<option>{E(c)}</option>" for c in t["formats"])
        tf = t["text_fields"]
        heading = (
            t.get("submission")
            or {
                "books": "Sell us your books",
                "movies": "Request a title",
                "jobs": "Post a job",
                "autos": "Value your trade-in",
                "music": "Sell your records",
                "realestate": "List your home",
                "airfare": "Set up a fare alert",
                "recipes": "Submit a recipe",
            }[topic]
        )
        action = rng.choice(["/sell/submit", "/submit.php", "/post/new", "/quote"])
        method = "post"
        h = (
            f'<h2>{heading}</h2><form action="{action}" method="post">'
            f'<label>{E(tf[0][1])} <input type="text" name="{tf[0][0]}"></label> '
            f'<label>{E(tf[1][1])} <input type="text" name="{tf[1][0]}"></label> '
            f'<label>{"Category" if topic != "books" else "Genre"} <select name="category">{cats}</select></label> '
            f'<label>{"Format" if topic != "jobs" else "Job type"} <select name="format">{fmts}</select></label> '
            f'<label>Your email <input type="text" name="email"></label> '
            f'<label>Details <textarea name="details" rows="4"></textarea></label>'
            f'<input type="hidden" name="form_id" value="{slug(heading)}"><input type="submit" value="Submit"></form>'
        )
        return action, method, h

    # ------------------------------------------------------------------ topic sites
    def _topic_site(self, topic: str, name: str, host: str, placement: str, cgi: bool, submission: bool) -> None:
        rng = random.Random(f"{self.seed}-{host}")
        t = TOPICS[topic]
        site = Site(self, host, name, "topic", topic)
        self.sites[host] = site
        site.records = self.records(topic, rng.choice([24, 40, 70, 120, 200, 320]), rng)
        site.item_prefix = rng.choice(["/item/", "/p/", "/detail/", "/listing/"])
        cat_prefix = rng.choice(["/category/", "/browse/", "/c/", "/genre/" if topic in ("books", "movies", "music") else "/type/"])
        cats = sorted({r.category for r in site.records})
        style = rng.randrange(7) if self.fresh else rng.randrange(4)
        traits = self.traits.get(host, {})  # heldout6/7 only
        style = traits.get("style", style)
        chooser = bool(traits.get("chooser")) and placement == "d3"
        if chooser:  # heldout34-36: built as a depth-2 site whose home page moves to /en/ behind a language chooser
            placement = "d2"
        consent = bool(traits.get("consent")) and placement == "d3"
        if consent:  # heldout40-42: built as a depth-2 site whose home page moves to /home behind a cookie-consent wall
            placement = "d2"
        if traits.get("hamburger"):  # heldout43-45: the navigation only in a hamburger <details> drawer
            site.hamburger = True
        subpage = bool(traits.get("subpage")) and placement == "d1" and not cgi
        search_action = rng.choice(["/search", "/search/results", "/results.php", "/find", "/s", "/query.aspx", "/catalog/search.do"])
        if cgi:
            search_action = "/cgi-bin/search.cgi"
            if self.fresh4:  # robots.txt names the results path itself (not a /cgi-bin/ folder)
                search_action = rng.choice(DISALLOWED_ACTIONS5 if self.fresh5 else DISALLOWED_ACTIONS4)
        elif traits.get("app_action"):
            search_action = rng.choice(APP_ACTIONS3 if self.fresh3 else APP_ACTIONS)
        elif traits.get("vendor"):
            # heldout18-20: the record search runs on a vendor's platform, another registered domain
            # serving many sites, each under its own tenant path
            app_host = FRESH7_VENDORS.get(topic, FRESH7_SHOP_VENDOR)
            app_path = f"/{slug(name).replace('-', '')[:18]}/" + rng.choice(["search", "search.do", "results", "find", "lookup"])
            search_action = f"http://{app_host}{app_path}"
        elif subpage:
            # heldout34-36: the search page and its action are on a sub-host of the site, in a subfolder
            app_host = rng.choice(SUBHOSTS13) + host[len("www") :]
            sub_page, app_path = rng.choice(
                [
                    ("/en/search", "/en/results"),
                    ("/search/", "/search/results"),
                    ("/simple/", "/simple/run"),
                    ("/opac/search.html", "/opac/results"),
                ]
            )
            search_action = f"http://{app_host}{app_path}"
        elif traits.get("subhost"):
            # the form's action is on a search sub-host of the same site (search.NAME.test)
            app_host = rng.choice(SUBHOSTS5 if self.fresh5 else SUBHOSTS) + host[len("www") :]
            app_path = rng.choice(["/results", "/query", "/search", "/lookup.do", "/find"])
            search_action = f"http://{app_host}{app_path}"
        method = rng.choice(["get", "get", "post"])
        method = traits.get("method", method)
        compact = placement == "home" and rng.random() < 0.5
        compact = traits.get("compact", compact)
        form_html, fields = self.search_form(site, topic, search_action, method, style, rng, compact=compact)
        site.actions[search_action] = Action("search", topic, fields, site.records, site.item_prefix, t["noun"], t["plural"])
        if style == 18:  # a Drupal Views form: "- Any -" sends All
            site.actions[search_action].any_value = "All"
        if search_action.startswith("http://") and traits.get("vendor"):
            act = site.actions.pop(search_action)
            act.item_prefix = f"http://{host}{site.item_prefix}"  # the results link to the records' pages on www
            self._vendor_tenant(app_host, app_path, act, site)
        elif search_action.startswith("http://"):
            app = Site(self, app_host, f"{name} search", "app", topic)
            app.robots = "User-agent: *\nDisallow: /admin/\n"
            act = site.actions.pop(search_action)
            act.item_prefix = f"http://{host}{site.item_prefix}"  # the results link to the records' pages on www
            app.actions[app_path] = act
            app.pages["/"] = (
                f"<!DOCTYPE html>\n<html><head><title>{E(name)} search service</title></head><body><p>This is the search service of "
                f'<a href="http://{host}/">{E(name)}</a>.</p></body></html>\n'
            )
            self.app_sites.append(app)
            if subpage:  # heldout34-36: the sub-host holds the search page too; its depth counts from the www home
                app.parent = host
                app.layout = random.Random(f"{self.seed}-{app_host}-layout13").choice([0, 1, 3])
                act.needs_term = bool(traits.get("needs_term"))
        if traits.get("formattr") and placement != "home" and not cgi and search_action in site.actions:
            form_html, fields = self._formattr_search_form(topic, search_action, method, rng)
            site.actions[search_action].fields = fields
        if traits.get("imgsubmit") and placement != "home" and not cgi and search_action in site.actions:
            form_html, fields = self._imgsubmit_search_form(topic, search_action, method, rng)
            site.actions[search_action].fields = fields
        if traits.get("nosubmit") and placement != "home" and not cgi and search_action in site.actions:
            form_html, fields = self._nosubmit_search_form(topic, search_action, method, rng)
            site.actions[search_action].fields = fields
        save_entry = None
        if traits.get("formaction") and placement != "home" and not cgi:
            # heldout21/22: the form's own action saves the search; its default button searches
            save_action = rng.choice(["/account/saved-searches", "/alerts/save", "/my/searches/new", "/saved-search/create"])
            form_html, fields, save_fields = self._formaction_search_form(topic, search_action, save_action, rng)
            site.actions[search_action].fields = fields
            site.actions[save_action] = Action("alert", topic, save_fields)
            save_entry = (save_action, "post", "alert", topic)
        if traits.get("dualform") and placement != "home" and not cgi and search_action in site.actions:
            # heldout40-42: the page holds a basic search (one box) and the advanced search, same action
            txt = next((n for n, role in fields if role == "text"), "q")
            hint = rng.choice(t["placeholders"])
            basic = (
                f'<form action="{search_action}" method="{method}" class="basic-search"><input type="hidden" name="mode" value="basic">'
                f'<label for="basic-{txt}">{E(rng.choice(["Search", "Search for", "Keywords", "Find"]))}</label> '
                f'<input type="search" id="basic-{txt}" name="{txt}" placeholder="{E(hint)}"> <button type="submit">Search</button></form>'
            )
            advanced = re.sub(r"(<form\b[^>]*>)", r'\1<input type="hidden" name="mode" value="advanced">', form_html, count=1)
            form_html = (
                '<div class="search-tabs" role="tablist"><a role="tab" href="#basic" aria-selected="true">Basic search</a> '
                '<a role="tab" href="#advanced" aria-selected="false">Advanced search</a></div>'
                f'<section id="basic" role="tabpanel"><h2>Basic search</h2>{basic}</section>'
                f'<section id="advanced" role="tabpanel" hidden><h2>Advanced search</h2>{advanced}</section>'
            )
            if not any(n == txt for n, _role in fields):
                fields = [(txt, "text")] + list(fields)
                site.actions[search_action].fields = fields
        if traits.get("csrf") and placement != "home" and not cgi and search_action in site.actions:
            # heldout40-42: a hidden CSRF token (and a form build id) in every form of the search; a
            # submission without the page's token is refused
            tok_name = rng.choice(["csrf_token", "_token", "authenticity_token", "csrfmiddlewaretoken", "__RequestVerificationToken"])
            tok = hashlib.sha1(f"{self.seed}-{host}-csrf".encode()).hexdigest()
            hidden = (
                f'<input type="hidden" name="{tok_name}" value="{tok}"><input type="hidden" name="form_build_id" value="form-{tok[:16]}">'
            )
            form_html = re.sub(r"(<form\b[^>]*>)", lambda m: m.group(1) + hidden, form_html)
            site.actions[search_action].token = (tok_name, tok)
        if traits.get("pathquery") and placement != "home" and not cgi and search_action in site.actions:
            # heldout43-45: one text box, GET; the action redirects to the query in the URL path
            prng = random.Random(f"{self.seed}-{host}-pathquery")
            txt = prng.choice(["q", "term", "keywords", "s"])
            prefix = prng.choice(PATHQ16)
            hint = prng.choice(t["placeholders"])
            label = prng.choice(["Search", "Search the " + t["plural"], "Find " + t["plural"], "Keywords"])
            form_html = (
                f'<form action="{search_action}" method="get" class="search-form" role="search">'
                f'<label for="pq-{txt}">{E(label)}</label> <input type="text" id="pq-{txt}" name="{txt}" placeholder="{E(hint)}"> '
                f'<button type="submit">{E(prng.choice(["Search", "Go", "Find"]))}</button></form>'
            )
            assert method == "get", host
            fields = [(txt, "text")]
            site.actions[search_action].fields = fields
            site.actions[search_action].pathq = prefix
        if traits.get("reqselect") and placement != "home" and not cgi and search_action in site.actions:
            # heldout43-45: a select of the site's categories is the only required field
            qrng = random.Random(f"{self.seed}-{host}-reqselect")
            lab = t.get("labels", {}).get("category", "Category")
            sel = qrng.choice(["collection", "category", "type", "section", "db"])
            txt = qrng.choice(["q", "keywords", "text", "terms"])
            choose = qrng.choice([f"Choose a {lab.lower()}", "-- Please select --", "Select...", f"Choose {lab.lower()}"])
            opts = "".join(f"<option>{E(c)}</option>" for c in cats)
            form_html = (
                f'<form action="{search_action}" method="{method}" class="search-form"><p class="hint">Fields marked '
                '<abbr title="required">*</abbr> are required.</p>'
                f'<label for="rs-{sel}">{E(lab)} <abbr title="required">*</abbr></label> '
                f'<select id="rs-{sel}" name="{sel}" required aria-required="true"><option value="">{E(choose)}</option>{opts}</select> '
                f'<label for="rs-{txt}">{E(qrng.choice(["Keywords (optional)", "Words (optional)", "Narrow by words"]))}</label> '
                f'<input type="text" id="rs-{txt}" name="{txt}"> <input type="submit" value="{E(qrng.choice(["Search", "Show records", "Go"]))}"></form>'
            )
            fields = [(sel, "category"), (txt, "text")]
            site.actions[search_action].fields = fields
            site.actions[search_action].needs_cat = lab
        base_href = ""
        if (traits.get("titleonly") or traits.get("bracket") or traits.get("welsh")) and placement != "home" and not cgi:
            if search_action in site.actions:
                form_html, fields = self._form17(site, topic, search_action, method, cats, traits)
                site.actions[search_action].fields = fields
        if traits.get("basehref") and placement != "home" and not cgi and search_action in site.actions and search_action.startswith("/"):
            # heldout46-48: <base href="/PREFIX/"> on the search page and a relative action: it submits to
            # /PREFIX/LEAF (nothing answers at LEAF beside the page)
            brng = random.Random(f"{self.seed}-{host}-basehref")
            base_href = brng.choice(BASEHREF17)
            leaf = brng.choice(["search.do", "results.jsp", "query", "find.php"])
            site.actions[base_href + leaf] = site.actions.pop(search_action)
            form_html = form_html.replace(f' action="{search_action}"', f' action="{leaf}"', 1)
            search_action = base_href + leaf
        if traits.get("shadow") and placement != "home" and not cgi:
            # heldout46-48: the form only inside a web component's declarative shadow root
            srng = random.Random(f"{self.seed}-{host}-shadow")
            tag = srng.choice(["site-search", "records-search", "db-query", "search-panel"])
            form_html = (
                f'<{tag} data-endpoint="{E(search_action)}"><template shadowrootmode="open">'
                "<style>:host{display:block} form{display:grid;gap:.5rem}</style>"
                f"{form_html}</template></{tag}>"
                f'<script type="module" src="/static/components/{tag}.js"></script>'
            )
        search_entry = (search_action, method, "search", topic)
        adv_html, adv_path = "", ""
        if self.fresh2 and compact:
            # the quick search's results page links to an advanced search with the same action
            adv_path = rng.choice(["/advanced", "/search/advanced.html", "/power-search", "/refine"])
            adv_html, adv_fields = self.search_form(site, topic, search_action, method, rng.randrange(4), rng)
            known = {n for n, _role in fields}
            site.actions[search_action].fields = fields + [f for f in adv_fields if f[0] not in known]
            site.actions[search_action].advanced = adv_path

        # navigation: menu and footer
        hub_name = rng.choice(self.pool(topic, "hub_links"))
        hub_path = rng.choice(["/catalog/", "/browse/", "/shop/", "/inventory/", "/collection/"])
        link_name = rng.choice(self.pool(topic, "search_links"))
        if traits.get("box"):  # heldout10-12: linked from a small box on the home page
            link_name = rng.choice(["advanced search", "full search", "detailed search", "advanced search form"])
        if traits.get("listing"):  # heldout13-15: a listing of the records, named as such
            link_name = rng.choice(t["listing_links"])
        elif traits.get("bottom"):  # heldout16/17: the same (older topics: "All books", "Full list", ...)
            link_name = rng.choice(t.get("listing_links") or [f"All {t['plural']}", "Full list", "Everything in stock"])
        if traits.get("browse"):  # heldout18-20: the menu says "Browse ...", not "search"
            link_name = rng.choice(t.get("browse_links") or ["Browse", "Browse the range", "Browse by category"])
        elif traits.get("advlink"):  # heldout18-20: the hub links to the search page by "Advanced" only
            link_name = rng.choice(["Advanced", "Advanced options", "More options", "Advanced filters"])
        if traits.get("dualform"):  # heldout40-42: the way to the basic and advanced search is named "Search" only
            link_name = "Search"
        search_path = rng.choice(
            [
                "/search.html",
                "/advanced-search",
                "/adv_search.php",
                "/find/",
                "/search/advanced",
                "/lookup",
                "/inventory.php",
                "/listings",
                "/catalog.html",
                "/stock/",
            ]
        )
        if placement in ("d2", "d3"):
            search_path = hub_path + rng.choice(["search", "advanced", "find.html", "query", "list.asp", "power.html"])
        if subpage:  # linked from the www menu by its absolute URL
            search_path = f"http://{app_host}{sub_page}"
        if traits.get("noaction") and placement != "home" and not cgi:
            # a form without an action attribute: it submits to its own page
            del site.actions[search_action]
            form_html = form_html.replace(f' action="{search_action}"', "", 1)
            search_action = search_path
            site.actions[search_action] = Action("search", topic, fields, site.records, site.item_prefix, t["noun"], t["plural"])
            search_entry = (search_action, method, "search", topic)
        if traits.get("relative") and placement != "home" and not cgi and not compact:
            # an ASP.NET page: the form posts back to Search.aspx beside its page (a relative action)
            del site.actions[search_action]
            rel = urllib.parse.urlsplit(urllib.parse.urljoin(f"http://{host}{search_path}", "Search.aspx")).path
            form_html = form_html.replace(f' action="{search_action}"', ' action="Search.aspx"', 1)
            search_action = rel
            site.actions[search_action] = Action("search", topic, fields, site.records, site.item_prefix, t["noun"], t["plural"])
            search_entry = (search_action, method, "search", topic)
        if traits.get("listing") and not cgi:
            # heldout13-15: a listing of the records whose filter form submits to the page itself
            del site.actions[search_action]
            form_html = form_html.replace(f' action="{search_action}"', f' action="{search_path}"', 1)
            search_action = search_path
            site.actions[search_action] = Action("search", topic, fields, site.records, site.item_prefix, t["noun"], t["plural"])
            search_entry = (search_action, method, "search", topic)
        if traits.get("needs_term") and search_action in site.actions:
            # heldout23-25: an empty query gets "Please enter a search term", not every record
            site.actions[search_action].needs_term = True
        if traits.get("shortzero") and search_action in site.actions:
            # heldout43-45: a full-text index that ignores words shorter than four letters
            site.actions[search_action].min_word = 4
        if traits.get("refresh") and placement != "home" and not cgi and search_action in site.actions:
            # heldout40-42: the search answers with a "Searching..." page that refreshes to the results
            view = rng.choice(["/results/view", "/search/hits", "/resultset/show", "/rs/list"])
            act = site.actions[search_action]
            act.refresh = view
            site.actions[view] = dataclasses.replace(act, refresh=None, token=None)
        if self.fresh5:  # a branch finder: a search of the business's branches (not of its records)
            site.branch_finder = self._branch_finder(site)
        site.menu = [("Home", "/")]
        if traits.get("iconlink"):  # heldout23-25: an icon at the end of the menu, named by aria-label only
            link_name = rng.choice(["Search", "Open search", *self.pool(topic, "search_links")[:3]])
            site.icon_links[search_path] = link_name
            site.layout = rng.choice([0, 1, 3, 5])  # layouts that write the menu as links (not image buttons or a jump menu)
        if traits.get("maplink"):  # heldout26/27: an image-map entry at the end of the menu, named by its alt text only
            link_name = rng.choice(["Search", "Quick search", *self.pool(topic, "search_links")[:3]])
            site.map_links[search_path] = link_name
            site.layout = rng.choice([0, 1, 3, 5])  # layouts that write the menu as links (not image buttons or a jump menu)
        if (
            placement == "d1"
            and not traits.get("box")
            and not traits.get("footlink")
            and not traits.get("iconlink")
            and not traits.get("maplink")
            and not traits.get("iframe")
        ):
            site.menu.append((link_name, search_path))
        site.menu.append((hub_name, hub_path))
        site.menu += [
            (rng.choice(t.get("featured_links") or ["New arrivals", "Featured", "Best sellers", "Specials"]), "/featured"),
            ("About us", "/about"),
            ("Contact", "/contact"),
            (rng.choice(["My account", "Log in", "Sign in"]), "/login"),
        ]
        if traits.get("iconlink") or traits.get("maplink"):
            site.menu.append((link_name, search_path))
        site.footer = [
            ("About", "/about"),
            ("Contact us", "/contact"),
            ("Help", "/help"),
            ("Privacy policy", "/privacy"),
            ("Terms of use", "/terms"),
            ("Partners", "/partners"),
            ("Cart", "/cart"),
        ]
        if rng.random() < 0.5:
            site.footer.append(("Gift cards", "/gift-cards"))  # a dead link
        if submission:
            site.footer.append((rng.choice(["Sell to us", "Submit", "Post a listing", "For sellers"]), "/sell"))
        if traits.get("footlink") and placement == "d1":  # heldout16/17: the search page is linked from the footer only
            site.footer.append((link_name, search_path))
        if traits.get("sitemap") or traits.get("sitemap_footer"):  # heldout34-36: a site map linked from every page's footer
            site.footer.append(("Site map", "/sitemap"))
        extras = FRESH_EXTRAS.get(topic, []) if self.fresh else []
        if self.fresh2:
            extras = extras + FRESH2_EXTRAS.get(topic, [])
        if self.fresh3:
            extras = extras + FRESH3_EXTRAS.get(topic, []) + FRESH3_COMMON_EXTRAS
        if self.fresh4:
            extras = extras + FRESH4_EXTRAS.get(topic, []) + FRESH4_COMMON_EXTRAS
        if self.fresh5:
            extras = extras + FRESH5_EXTRAS.get(topic, [])
        if self.fresh6:
            extras = extras + FRESH6_EXTRAS.get(topic, [])
        if self.fresh7:
            extras = extras + FRESH7_EXTRAS.get(topic, [])
        if self.fresh9:
            extras = extras + FRESH9_EXTRAS.get(topic, [])
        if self.fresh13:
            extras = extras + {**FRESH13_EXTRAS, **FRESH14_EXTRAS, **FRESH15_EXTRAS, **FRESH16_EXTRAS, **FRESH17_EXTRAS}.get(topic, [])
        elif self.fresh12:
            extras = extras + FRESH12_EXTRAS.get(topic, [])
        elif self.fresh11:
            extras = extras + FRESH11_EXTRAS.get(topic, [])
        elif self.fresh10:
            extras = extras + FRESH10_EXTRAS.get(topic, [])
        for label, path, where, _kind in extras:
            (site.menu if where == "menu" else site.footer).append((label, path))
        if traits.get("newsfirst"):
            # news, blog, events, press... come first; the way to the search last
            moved = [m for m in site.menu if m[1] in (hub_path, search_path)]
            keep = [m for m in site.menu if m not in moved]
            site.menu = (
                keep[:1]
                + [
                    ("News", "/news/"),
                    ("Blog", "/blog/"),
                    ("Events", "/events"),
                    ("Press", "/press/"),
                    ("Annual review", "/annual-review"),
                    ("Volunteer with us", "/volunteer"),
                ]
                + keep[1:]
                + moved
            )
        news_html, news_entry = self.newsletter(site, rng)
        site.footer_form = news_html
        site.layout_forms = [news_entry]
        if placement == "home" and compact:
            # a quick search box in the header of every page
            site.header_form = form_html
            site.layout_forms = [news_entry, search_entry]
        elif self.fresh5 and traits.get("hosted"):
            self._hosted_site_search(site, rng)
        elif self.fresh:
            self._site_search(site, rng)
        if traits.get("pref") and self.fresh3:
            # a locale form of two selects (language, region): in the utility bar of the mega-menu layout
            h, f = self._fresh3_form(site, "locale", rng)
            if site.layout == 5:
                site.utility_form = h
            else:
                site.footer_form += h
            site.layout_forms = site.layout_forms + [f]
        elif traits.get("pref"):
            # a select list and a button in the footer that is not a search (currency, delivery country)
            h, f = self._fresh2_form(site, "preference", rng)
            site.footer_form += h
            site.layout_forms = site.layout_forms + [f]
        if placement == "home" and traits.get("footsearch"):
            # heldout17: the record search sits in every page's footer, above the newsletter
            heading = rng.choice(["Looking for a piece?", "Can't see what you need?", "Find it in our catalogue"])
            site.footer_form = f'<section class="footer-search"><h2>{E(heading)}</h2>{form_html}</section>' + site.footer_form
            site.layout_forms = site.layout_forms + [search_entry]
        if self.fresh6:  # "Was this page helpful?" at the foot of every page of a topic site
            fh, ff = self._fresh6_form(site, "feedback", random.Random(f"{self.seed}-{host}-feedback"))
            site.footer_form = fh + site.footer_form
            site.layout_forms = site.layout_forms + [ff]
        robots = ["User-agent: *"]
        if cgi:
            robots.append(f"Disallow: {search_action}" if self.fresh4 else "Disallow: /cgi-bin/")
        if rng.random() < 0.5:
            robots += ["Disallow: /cart", "Disallow: /account/"]
        if self.fresh4:
            rr = random.Random(f"{self.seed}-{host}-robots4")
            if rr.random() < 0.5:
                robots.append("Disallow: /*?sort=")  # the sort orders of the category listings
            if traits.get("newsfirst"):
                robots.append("Disallow: /blog/tag/")
            if rr.random() < 0.3:
                robots.append("Disallow: /print/")
            if rr.random() < 0.4:
                robots = ["User-agent: BadBot", "Disallow: /", ""] + robots
        site.robots = "\n".join(robots) + "\n" if len(robots) > 1 or rng.random() < 0.5 else None

        def item_link(r: Record) -> str:
            return f'<li><a href="{site.item_prefix}{r.rid}">{E(r.title)}</a> &ndash; {E(r.creator)}, {E(r.fmt)}</li>'

        sent = t["sentences"]
        featured = site.records[:5]
        home_body = (
            f"<p>{E(t['tagline_plain' if t.get('plain_word', '#') in name.lower() else 'tagline'].format(year=rng.randrange(1975, 2015)))}.</p><p>{E(' '.join(rng.sample(sent, 2)))}</p>"
            f"<h2>{rng.choice(['Featured', 'Staff picks', 'This week'])}</h2><ul>{''.join(item_link(r) for r in featured[:3])}</ul>"
            f"<h2>{rng.choice(['Browse by category', 'Departments', 'Categories'])}</h2><ul>"
            + "".join(f'<li><a href="{cat_prefix}{slug(c)}/">{E(c)}</a></li>' for c in cats[:4])
            + "</ul>"
            + '<p><a href="/news/">Store news</a> &middot; <a href="/events">Events</a></p>'
        )
        if traits.get("newsy"):
            # a home page of news: the topic is named only in the title and the meta description
            heads = random.Random(f"{self.seed}-{host}-news").sample(NEWS_HEADLINES, 4)
            home_body = (
                f"<h2>{rng.choice(['Latest news', 'News and updates', 'Noticeboard'])}</h2>"
                + "".join(
                    f"<article><h3>{E(hd)}</h3><p>Posted {rng.randrange(1, 28)} {rng.choice(['March', 'June', 'October'])}. "
                    f'<a href="/news/">Read more</a></p></article>'
                    for hd in heads
                )
                + '<p><a href="/about">About us</a> &middot; <a href="/contact">Find us</a></p>'
            )
        home_forms = []
        if placement == "home" and traits.get("footsearch"):
            pass  # the record search is in the footer of every page (heldout17)
        elif placement == "home" and traits.get("noscript"):
            # heldout18-20: a JavaScript search app; the HTML form is only in its <noscript> fallback
            home_body = self._noscript_search(site, form_html, search_action, fields, rng) + home_body
            home_forms = [search_entry]
        elif placement == "home" and traits.get("dialog"):
            # heldout16: a header button opens a <dialog> placed at the end of the home page
            uid = rng.randrange(100, 999)
            home_body = (
                f'<button type="button" class="search-toggle" aria-haspopup="dialog" aria-controls="dlg-{uid}">'
                '<svg aria-hidden="true" width="16" height="16"><circle cx="7" cy="7" r="5"></circle></svg>'
                f'<span class="visually-hidden">{E(rng.choice(["Open search", "Search", "Find"]))}</span></button>' + home_body
            )
            home_body += (
                f'<dialog id="dlg-{uid}" class="search-modal" aria-labelledby="dlg-{uid}-title">'
                f'<h2 id="dlg-{uid}-title">{E(rng.choice(["What are you looking for?", "Find what you need", "Start here"]))}</h2>'
                f'{form_html}<button type="button" class="close" aria-label="Close">&times;</button></dialog>'
            )
            home_forms = [search_entry]
        elif placement == "home" and self.fresh5 and traits.get("tabs3"):
            # a tabbed widget of three forms: the record search, the branch finder, and a form
            # that is not a search (valuation, eligibility, report), as agents' home pages have
            bh, bf = site.branch_finder
            th, tf = self._fresh_form(site, FRESH5_TAB3.get(topic, "quote"), rng)
            tab_names = [
                rng.choice(t["search_links"]),
                rng.choice(["Find a branch", "Find an office near you", "Local offices"]),
                {"fundcheck": "Am I eligible?", "valuation": "Landlords", "safetyreport": "Report a product"}.get(tf[2], "Get a quote"),
            ]
            tabs = "".join(
                f'<button role="tab" id="tab-{k}" aria-controls="panel-{k}" aria-selected="{"true" if k == 1 else "false"}">{E(n)}</button>'
                for k, n in enumerate(tab_names, 1)
            )
            panels = "".join(
                f'<div role="tabpanel" id="panel-{k}" aria-labelledby="tab-{k}"{"" if k == 1 else " hidden"}>{h}</div>'
                for k, h in enumerate([form_html, bh, th], 1)
            )
            home_body = (
                f'<section class="hero-tabs"><div role="tablist" aria-label="Get started">{tabs}</div>{panels}</section>' + home_body
            )
            home_forms = [search_entry, bf, tf]
        elif placement == "home" and self.fresh4 and site.header_form != form_html:
            # a hero box: at the top, or at the end of a home page of news and blog links
            hero = (
                f'<section class="hero"><h2>{E(rng.choice(["Explore the collection" if topic == "museums" else "Find a " + t["noun"], "Start exploring", "Search " + t["plural"]]))}</h2>'
                f'{form_html}<p class="tips"><a href="/help">Search tips</a></p></section>'
            )
            home_body = home_body + hero if traits.get("newsfirst") else hero + home_body
            home_forms = [search_entry]
        elif placement == "home" and self.fresh and (site.header_form or "").find(search_action + '"') < 0:
            # a tabbed search widget, as college and shelter home pages have
            home_body = (
                f'<div class="tabs"><ul class="tab-list" role="tablist"><li class="active" role="tab"><a href="#find">'
                f"{E(rng.choice(['Find a ' + t['noun'], 'Search ' + t['plural'], 'Start here']))}</a></li>"
                f'<li role="tab"><a href="/help">Help</a></li></ul><div id="find" class="tab-pane">{form_html}</div></div>' + home_body
            )
            home_forms = [search_entry]
        elif placement == "home" and not site.header_form:
            home_body = (
                f'<div class="searchbox"><h2>{E(rng.choice(["Find your next " + t["noun"], "Search " + t["plural"], "Quick search"]))}</h2>'
                f"{form_html}</div>" + home_body
            )
            home_forms = [search_entry]
        if traits.get("poll"):  # heldout8/9: a poll on the home page (GET, radio buttons)
            h, f = self._fresh3_form(site, "poll", rng)
            home_body += h
            home_forms = home_forms + [f]
        if traits.get("box") and placement == "d1":
            # the search page is linked only from a small box on the home page
            home_body += (
                f'<aside class="box small"><h3>{E(rng.choice(["Looking for something specific?", "Know what you want?", "Research tools"]))}</h3>'
                f'<p>Try our <a href="{search_path}">{E(link_name)}</a>.</p></aside>'
            )
        if traits.get("newsfirst"):
            home_body = self._newsfirst(site, rng) + home_body
        if traits.get("iframe") and placement == "d1":
            # heldout31-33: the search is a widget embedded in the home page; no link leads to it
            home_body = (
                f'<section class="widget search-widget"><h2>{E(link_name)}</h2><iframe src="{search_path}" title="{E(link_name)}" '
                'width="100%" height="240" frameborder="0" scrolling="no" loading="lazy"></iframe></section>' + home_body
            )
        site.page("/", f"Welcome to {name}", home_body, forms=home_forms)
        # heldout28-30: a site whose name says what it lists is written plainly, the others in their own words
        plain = bool(t.get("plain_word")) and t["plain_word"] in name.lower()
        tag = rng.choice(t["title_tags_plain"] if plain else t["title_tags"])
        site.pages["/"] = site.pages["/"].replace(
            f"<title>Welcome to {E(name)} | {E(name)}</title>",
            f'<title>{E(name)} - {E(tag)}</title><meta name="description" content="{E(name)}: {E(tag.lower())}. {E(rng.choice(sent))}">',
        )

        # search path pages
        search_body = f"<p>{E(rng.choice(['Use the form below to search our ' + t['plural'] + '.', 'Search by any combination of fields.', 'Fill in one or more fields.']))}</p>{form_html}"
        search_forms = [search_entry]
        if traits.get("beside") and placement != "home":
            # a login box before the search form and a search-alert form after it, on the same page
            lh, lf = self._simple_form(site, search_path, "login", rng)
            ah, af = self._fresh4_form(site, "alert", rng)
            search_body = (
                f'<div class="account-box"><h2>Sign in to save your searches</h2>{lh}</div>{search_body}'
                f'<div class="alerts"><h2>Email me new {E(t["plural"])}</h2>{ah}</div>'
            )
            search_forms = [lf, search_entry, af]
        if traits.get("beside2") and placement != "home":
            # a cookie form and a booking / registration / alert form before the search form
            ch, cf = self._fresh4_form(site, "cookies", rng)
            bh, bf = self._fresh_form(site, FRESH5_BESIDE.get(topic, "registration"), rng)
            search_body = (
                f'<div class="cookie-banner" role="dialog"><p>We use cookies.</p>{ch}</div><div class="promo">{bh}</div>{search_body}'
            )
            search_forms = [cf, bf, search_entry]
        if traits.get("beside6") and placement != "home":
            # heldout16/17: a form shaped like the search (supplier registration, arrangement request)
            # before the search, and a login after it
            xh, xf = self._fresh_form(site, FRESH6_BESIDE.get(topic, "registration"), rng)
            lh, lf = self._simple_form(site, search_path, "login", rng)
            search_body = (
                f'<div class="callout">{xh}</div>{search_body}<div class="account-box"><h2>Already registered? Sign in</h2>{lh}</div>'
            )
            search_forms = [xf, search_entry, lf]
        if traits.get("vendor") and placement != "home":
            vhost = FRESH7_VENDORS.get(topic, FRESH7_SHOP_VENDOR)
            search_body += f'<p class="powered-by"><small>Search powered by <a href="http://{vhost}/">{E(self.vendor_sites[vhost].name)}</a></small></p>'
        if save_entry:
            search_forms = search_forms + [save_entry]
        if traits.get("beside7") and placement != "home":
            # heldout18-20: a form shaped like the search after it (place a notice, register a vessel,
            # request a valuation)
            xh, xf = self._fresh_form(
                site,
                (
                    {
                        **FRESH9_BESIDE,
                        **FRESH10_BESIDE,
                        **FRESH11_BESIDE,
                        **FRESH12_BESIDE,
                        **FRESH13_BESIDE,
                        **FRESH14_BESIDE,
                        **FRESH15_BESIDE,
                        **FRESH16_BESIDE,
                        **FRESH17_BESIDE,
                    }
                    if self.fresh9
                    else FRESH7_BESIDE
                ).get(topic, "registration"),
                rng,
            )
            search_body += f'<div class="callout">{xh}</div>'
            search_forms = search_forms + [xf]
        if traits.get("bottom"):
            # heldout16/17: a long listing of the records with the form to narrow it at the very bottom
            shown = site.records[:40]
            search_body = (
                f'<p>{len(site.records)} {E(t["plural"])}. {E(rng.choice(sent))}</p><ul class="listing">'
                + "".join(item_link(r) for r in shown)
                + f'</ul><section class="refine"><h2>{E(rng.choice(["Narrow these results", "Refine the list", "Filter this list"]))}</h2>'
                f"{form_html}</section>"
            )
        if traits.get("listing"):
            shown = site.records[:10]
            pager = " ".join(f'<a href="{search_path}?page={k}">{k}</a>' for k in range(2, min(6, (len(site.records) + 9) // 10 + 1)))
            search_body = (
                f'<div class="listing-layout"><aside class="filters"><h2>Filter results</h2>{form_html}</aside>'
                f'<section class="results"><p>{len(site.records)} {E(t["plural"])} available. Showing 1-{len(shown)}.</p><ul>'
                + "".join(item_link(r) for r in shown)
                + f'</ul><p class="pager">Page 1 {pager}</p></section></div>'
            )
        if placement == "d1" and traits.get("iframe"):
            # heldout31-33: a bare widget document; the form opens its results in the whole window
            site.pages[search_path] = (
                f'<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>{E(link_name)}</title>'
                '<link rel="stylesheet" href="/static/widget.css"></head><body class="search-widget">\n'
                + form_html.replace("<form ", '<form target="_top" ', 1)
                + f'\n<p class="widget-foot"><a href="/help" target="_top">{E(rng.choice(["Search tips", "Help"]))}</a></p>\n</body></html>\n'
            )
            site.add_form(search_path, *search_entry)
        elif placement == "d1" and subpage:
            # heldout34-36: the search page on the sub-host, in the catalogue application's own small layout
            app.menu = [(f"{name} home", f"http://{host}/"), (link_name, sub_page), ("Help", f"http://{host}/help")]
            app.footer = [
                ("About", f"http://{host}/about"),
                ("Contact us", f"http://{host}/contact"),
                ("Privacy policy", f"http://{host}/privacy"),
            ]
            app.name = f"{name} {rng.choice(['catalogue', 'online search', 'search service'])}"
            app.page(sub_page, link_name, search_body, forms=search_forms)
            app.pages["/"] = app.pages["/"].replace("</p></body>", f' <a href="{sub_page}">{E(link_name)}</a></p></body>', 1)
        elif placement == "d1":
            site.page(search_path, link_name, search_body, crumbs=[(link_name, search_path)], forms=search_forms)
        hub_links = "".join(f'<li><a href="{cat_prefix}{slug(c)}/">{E(c)}</a></li>' for c in cats)
        if placement == "d2" and traits.get("sitemap"):
            # heldout34-36: no link to the search page on the hub; only the site map lists it
            site.page(hub_path, hub_name, f"<p>{E(rng.choice(sent))}</p><ul>{hub_links}</ul>", crumbs=[(hub_name, hub_path)])
            site.page(search_path, link_name, search_body, crumbs=[(hub_name, hub_path), (link_name, search_path)], forms=search_forms)
        elif placement == "d2":
            site.page(
                hub_path,
                hub_name,
                f'<p>{E(rng.choice(sent))}</p><ul>{hub_links}</ul><p><a href="{search_path}">{E(link_name)}</a></p>',
                crumbs=[(hub_name, hub_path)],
            )
            site.page(search_path, link_name, search_body, crumbs=[(hub_name, hub_path), (link_name, search_path)], forms=search_forms)
        elif placement == "d3":
            sub_name = rng.choice([f"All {t['plural']}", "Services", "Help & tools", f"{t['plural'].title()} department"])
            sub_path = hub_path + rng.choice(["all/", "tools/", "services/", "dept/"])
            site.page(
                hub_path,
                hub_name,
                f'<p>{E(rng.choice(sent))}</p><ul>{hub_links}</ul><p><a href="{sub_path}">{E(sub_name)}</a></p>',
                crumbs=[(hub_name, hub_path)],
            )
            if traits.get("disclaimer"):
                # heldout18-20: a terms-of-use page in front of the search: an accept form (GET, to the
                # search page) and a text link for browsers without JavaScript
                sub_name = rng.choice(["Before you search", "Terms of use", "Using this service", "Conditions of use"])
                site.page(
                    sub_path,
                    sub_name,
                    f"<p>{E(rng.choice(sent))}</p><p>The information is provided for personal research. You may not copy it in bulk "
                    "or use it to send marketing.</p>"
                    f'<form action="{search_path}" method="get" class="terms-accept"><input type="hidden" name="accept" value="yes">'
                    '<label><input type="checkbox" name="agree" value="1" required> I have read and accept the terms of use</label> '
                    f'<input type="submit" value="{E(rng.choice(["Accept and continue", "I agree", "Continue"]))}"></form>'
                    f'<noscript><p><a href="{search_path}">Continue to {E(link_name.lower())}</a></p></noscript>',
                    crumbs=[(hub_name, hub_path), (sub_name, sub_path)],
                    forms=[(search_path, "get", "terms", "none")],
                )
            else:
                site.page(
                    sub_path,
                    sub_name,
                    f'<p>{E(rng.choice(sent))}</p><ul><li><a href="/help">Ordering help</a></li>'
                    f'<li><a href="{search_path}">{E(link_name)}</a></li><li><a href="/featured">Featured</a></li></ul>',
                    crumbs=[(hub_name, hub_path), (sub_name, sub_path)],
                )
            site.page(
                search_path,
                link_name,
                search_body,
                crumbs=[(hub_name, hub_path), (sub_name, sub_path), (link_name, search_path)],
                forms=search_forms,
            )
        else:
            site.page(hub_path, hub_name, f"<p>{E(rng.choice(sent))}</p><ul>{hub_links}</ul>", crumbs=[(hub_name, hub_path)])
        if adv_html:  # linked only from the results page of the quick search
            site.page(
                adv_path,
                "Advanced search",
                f"<p>Refine your search.</p>{adv_html}",
                crumbs=[("Advanced search", adv_path)],
                forms=[search_entry],
            )

        # categories (paginated, three sort orders, as real catalogues have) and item pages
        per_page = 12
        for c in cats:
            recs = [r for r in site.records if r.category == c]
            pages = max(1, (len(recs) + per_page - 1) // per_page)
            for sort in ("", "price", "title"):
                ordered = sorted(
                    recs, key=lambda r: (r.price, r.rid) if sort == "price" else (r.title, r.rid) if sort == "title" else r.rid
                )
                for n in range(1, pages + 1):
                    q = urllib.parse.urlencode([(k, v) for k, v in (("page", str(n) if n > 1 else ""), ("sort", sort)) if v])
                    base = f"{cat_prefix}{slug(c)}/"
                    sorts = " ".join(f'<a href="{base}?sort={o}">{o or "default"}</a>' for o in ("price", "title"))
                    pager = " ".join(
                        f'<a href="{base}?page={k}{"&amp;sort=" + sort if sort else ""}">{k}</a>' for k in range(1, pages + 1) if k != n
                    )
                    if n < pages:
                        pager += f' <a href="{base}?page={n + 1}{"&amp;sort=" + sort if sort else ""}">Next &raquo;</a>'
                    chunk = ordered[(n - 1) * per_page : n * per_page]
                    site.page(
                        base + ("?" + q if q else ""),
                        c + (f" (page {n})" if n > 1 else ""),
                        f"<p>{len(recs)} {E(c)} {E(t['plural'])}. Sort by: {sorts}</p>"
                        f'<ul>{"".join(item_link(r) for r in chunk)}</ul><p class="pager">{pager}</p>',
                        crumbs=[(hub_name, hub_path), (c, base)],
                    )
        site.page("/featured", "Featured", f"<ul>{''.join(item_link(r) for r in site.records[5:12])}</ul>")
        cart_action = "/cart/add"
        site.actions[cart_action] = Action("cart", "none")
        if self.fresh2 and topic == "hotels":
            # a reservation request on every hotel's page: dates and guests, but not a search
            nights = "".join(f"<option>{i}</option>" for i in range(1, 8))
            site.item_form = (
                "/reserve/request",
                '<h3>Request a booking</h3><form action="/reserve/request" method="post"><label>Arrival <input type="date" name="arrive"></label> '
                f'<label>Nights <select name="nights">{nights}</select></label> <label>Guests <select name="guests"><option>1</option>'
                '<option selected>2</option><option>3</option><option>4</option></select></label> <label>Your name <input type="text" name="name"></label> '
                '<label>Email <input type="email" name="email"></label> <input type="submit" value="Request booking"></form>',
            )
            site.actions["/reserve/request"] = Action("booking", "none")
        site._item = lambda r: self._item_page(site, r, cart_action, hub_name, hub_path, cat_prefix)
        for r in site.records:
            self._item_page(site, r, cart_action, hub_name, hub_path, cat_prefix)
        # info pages
        site.page(
            "/about",
            "About us",
            f"<p>{E(name)} is an independent business. {E(' '.join(rng.sample(sent, 2)))}</p>"
            f'<p>Visit our <a href="/stores">stores</a> or read our <a href="/news/">news</a>.</p>',
        )
        h, f = self._simple_form(site, "/contact", "contact", rng)
        site.page("/contact", "Contact us", f"<p>Questions about an order? Write to us.</p>{h}", forms=[f])
        h, f = self._simple_form(site, "/login", "login", rng)
        h2, f2 = self._simple_form(site, "/login", "register", rng)
        site.page("/login", "Sign in", f"{h}<h2>New customer?</h2>{h2}", forms=[f, f2])
        h, f = self._simple_form(site, "/help", "track", rng)
        site.page(
            "/help", "Help", f"<h2>Track your order</h2>{h}<h2>FAQ</h2><p>Shipping takes 3-5 days. {E(rng.choice(sent))}</p>", forms=[f]
        )
        if self.fresh5:
            h, f = site.branch_finder
            for r in site.branches:
                site.page(r.href, r.title, f"<p>{E(r.title)}, High Street, {E(r.fmt)}. Open Monday to Saturday, 9 to 5.</p>")
            site.page(
                "/stores",
                "Find a branch",
                f"<p>We have {len(site.branches)} branches.</p>{h}<ul>"
                + "".join(f'<li><a href="{r.href}">{E(r.title)}</a></li>' for r in site.branches)
                + "</ul>",
                forms=[f],
            )
        else:
            h, f = self._simple_form(site, "/stores", "locator", rng)
            site.page("/stores", "Our stores", f"<p>We have {rng.randrange(2, 9)} locations.</p>{h}", forms=[f])
        h, f = self._simple_form(site, "/cart", "checkout", rng)
        site.page("/cart", "Your cart", f"<p>Your cart is empty.</p>{h}", forms=[f])
        site.page("/privacy", "Privacy policy", "<p>We never sell your personal data. Cookies are used for your cart.</p>")
        site.page("/terms", "Terms of use", "<p>Prices and availability are subject to change.</p>")
        site.page("/events", "Events", f"<p>{E(rng.choice(sent))}</p>")
        posts = []
        for i in range(rng.randrange(2, 4)):
            p = f"/news/{2020 + i}-{rng.randrange(1, 12):02d}-update.html"
            posts.append(p)
            h, f = self._simple_form(site, p, "comment", rng)
            site.page(
                p,
                f"News: {rng.choice(sent)[:40]}",
                f"<p>{E(' '.join(rng.sample(sent, 3)))}</p>{h}",
                crumbs=[("News", "/news/"), ("Post", p)],
                forms=[f],
            )
        site.page(
            "/news/",
            "Store news",
            "<ul>" + "".join(f'<li><a href="{p}">{p[6:16]}</a></li>' for p in posts) + "</ul>",
            crumbs=[("News", "/news/")],
        )
        if submission:
            h, f = self._simple_form(site, "/sell", "submission", rng, topic=topic)
            site.page("/sell", "Sell to us", f"<p>{E(rng.choice(sent))}</p>{h}", forms=[f])
        for label, path, _where, kind in extras:
            h, f = self._fresh_form(site, kind, rng)
            site.page(path, label, f"<p>{E(rng.choice(sent))}</p>{h}", forms=[f])
        site.partners_path = "/partners"
        if traits.get("sitemap") or traits.get("sitemap_footer"):
            self._sitemap_page(
                site,
                cats,
                cat_prefix,
                posts,
                link_name,
                search_path,
                list_search=placement in ("home", "d1", "d2") and not chooser and not consent,
            )
        if chooser:
            self._language_chooser(site)
        if consent:
            self._consent_wall(site)
        if base_href:  # heldout46-48: the search page resolves its relative action against its <base href>
            site.pages[search_path] = site.pages[search_path].replace("<head>", f'<head><base href="{base_href}">', 1)

    def _sitemap_page(
        self, site: Site, cats: list, cat_prefix: str, posts: list, link_name: str, search_path: str, list_search: bool
    ) -> None:
        """heldout34-36: an HTML site map (linked from every page's footer): the menu, the footer pages,
        the categories, the news, and under "Tools" the search page (on the site whose search page it
        alone links to, and on other sites where listing it keeps the page's depth)."""
        srng = random.Random(f"{self.seed}-{site.host}-sitemap")
        seen = {"/sitemap"}

        def items(pairs: list) -> str:
            out = []
            for label, href in pairs:
                if href in seen:
                    continue
                seen.add(href)
                out.append(f'<li><a href="{href}">{E(label)}</a></li>')
            return "".join(out)

        tools = [("Help", "/help"), ("Our stores" if site.topic not in TOPICS else "Find a branch", "/stores"), ("Contact us", "/contact")]
        if list_search:
            tools.insert(srng.randrange(len(tools) + 1), (link_name, search_path))
        body = (
            f"<p>{E(srng.choice(['Every page of this site, by section.', 'All our pages in one place.', 'Find your way around.']))}</p>"
            f"<h2>Main pages</h2><ul>{items([m for m in site.menu if m[1] != search_path])}</ul>"
            f"<h2>{E(srng.choice(['Browse', 'Categories', 'Sections']))}</h2><ul>"
            + items([(c, f"{cat_prefix}{slug(c)}/") for c in cats])
            + f"</ul><h2>Tools</h2><ul>{items(tools)}</ul>"
            + f"<h2>News</h2><ul>{items([(p[6:16], p) for p in posts])}</ul>"
            + f"<h2>About this site</h2><ul>{items([f for f in site.footer if f[1] != search_path])}</ul>"
        )
        site.page("/sitemap", "Site map", body, crumbs=[("Site map", "/sitemap")])

    def _language_chooser(self, site: Site) -> None:
        """heldout34-36: the home page is a splash page to choose a language: English (/en/, the home
        page the site had) and one other language whose pages are still being prepared."""
        crng = random.Random(f"{self.seed}-{site.host}-chooser")
        code, lang, choose, text = crng.choice(CHOOSER_LANGS13)
        site.pages["/en/"] = site.pages.pop("/")
        old, new = site.url("/"), site.url("/en/")
        for truth in self.forms.values():
            if old in truth.pages:
                truth.pages.discard(old)
                truth.pages.add(new)
        name = E(site.name)
        site.pages["/"] = (
            f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>{name}</title>'
            f'<link rel="alternate" hreflang="en" href="/en/"><link rel="alternate" hreflang="{code}" href="/{code}/">'
            '<link rel="stylesheet" href="/static/splash.css"></head><body class="language-select">\n'
            f'<div class="splash"><img src="/img/logo.png" alt="{name}"><h1>{name}</h1>'
            f'<p>Choose your language / <span lang="{code}">{E(choose)}</span></p><ul class="languages">'
            f'<li><a href="/en/" hreflang="en" lang="en">English</a></li><li><a href="/{code}/" hreflang="{code}" lang="{code}">{E(lang)}</a></li>'
            "</ul></div>\n</body></html>\n"
        )
        site.pages[f"/{code}/"] = (
            f'<!DOCTYPE html>\n<html lang="{code}"><head><meta charset="utf-8"><title>{name}</title></head><body>\n'
            f'<h1>{name}</h1><p>{E(text)}</p><p><a href="/en/" hreflang="en" lang="en">English</a></p>\n</body></html>\n'
        )

    def _consent_wall(self, site: Site) -> None:
        """heldout40-42: the home page is a cookie-consent wall: two POST forms (accept all, reject
        non-essential), a link to the cookie policy and one to continue to /home, the home page the
        site would have had."""
        crng = random.Random(f"{self.seed}-{site.host}-consent")
        site.pages["/home"] = site.pages.pop("/")
        old, new = site.url("/"), site.url("/home")
        for truth in self.forms.values():
            if old in truth.pages:
                truth.pages.discard(old)
                truth.pages.add(new)
        action = crng.choice(["/cookie-consent", "/consent", "/privacy/consent"])
        site.actions[action] = Action("consent", "none")
        name = E(site.name)
        heading = crng.choice(["We value your privacy", "Cookies on this site", "Before you continue", "Your cookie choices"])
        accept = crng.choice(["Accept all cookies", "Accept all", "Allow all cookies", "I accept"])
        reject = crng.choice(["Reject non-essential cookies", "Reject all", "Essential cookies only", "Necessary cookies only"])
        forward = crng.choice(["Continue with essential cookies only", "Continue without accepting", "Skip to the site"])
        site.pages["/"] = (
            f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>{name}</title>'
            '<link rel="stylesheet" href="/static/consent.css"></head><body class="consent-wall">\n'
            f'<div class="consent" role="dialog" aria-modal="true" aria-labelledby="cw-title"><img src="/img/logo.png" alt="{name}">'
            f'<h1 id="cw-title">{E(heading)}</h1><p>We use cookies to make this site work and, with your consent, to understand how '
            "it is used. Essential cookies are always on.</p>"
            f'<form action="{action}" method="post" class="consent-accept"><input type="hidden" name="consent" value="all">'
            f'<input type="hidden" name="return" value="/home"><button type="submit">{E(accept)}</button></form>'
            f'<form action="{action}" method="post" class="consent-reject"><input type="hidden" name="consent" value="essential">'
            f'<input type="hidden" name="return" value="/home"><button type="submit">{E(reject)}</button></form>'
            f'<p class="consent-links"><a href="/privacy">Cookie policy</a> &middot; <a href="/home">{E(forward)}</a></p></div>\n</body></html>\n'
        )
        site.add_form("/", action, "post", "consent", "none")

    def _site_search(self, site: Site, rng: random.Random) -> None:
        """A search of the site's own pages (not of its records) in the header: beside the
        record search on the fresh webs' topic sites, as college and charity sites have."""
        action = rng.choice(["/site-search", "/search-site", "/sitesearch"])
        pages = [("About us", "/about"), ("Help", "/help"), ("Contact us", "/contact"), ("Our stores", "/stores"), ("News", "/news/")]
        recs = [Record(i, tt, site.name, "", "", "", f"{tt} {site.name}".lower(), href=h) for i, (tt, h) in enumerate(pages)]
        site.actions[action] = Action("search", "site", [("q", "text")], recs, "/", "page", "pages")
        site.header_form = (
            f'<form class="search-form" action="{action}" method="get" role="search"><input type="search" name="q" '
            f'aria-label="Search this site" placeholder="Search this site"><button type="submit">Search</button></form>'
        )
        site.layout_forms = site.layout_forms + [(action, "get", "search", "site")]

    def _fresh_form(self, site: Site, kind: str, rng: random.Random) -> tuple[str, tuple]:
        """Forms of the fresh webs' topic sites that are not searches of their records."""
        t = TOPICS[site.topic]
        cats = "".join(f'<option value="{slug(c)}">{E(c)}</option>' for c in t["categories"][:6])
        if kind == "status":  # GET, a lookup of one's own record: not a search of the catalogue
            action = rng.choice(["/results", "/exam-results/check", "/booking/find"])
            h = (
                f'<form action="{action}" method="get"><label>{"Student number" if site.topic == "courses" else "Booking reference"} '
                f'<input type="text" name="ref"></label> <label>{"Date of birth" if site.topic == "courses" else "Email"} '
                f'<input type="text" name="check"></label> <input type="submit" value="Check"></form>'
            )
            method = "get"
        elif kind == "report":  # GET, full of the topic's words: report a lost or found animal
            action, method = "/lost-found/report", "get"
            h = (
                f'<form action="{action}" method="get"><label>Lost or found? <select name="status"><option>Lost</option><option>Found</option></select></label> '
                f'<label>{E(t.get("labels", {}).get("category", "Category"))} <select name="species">{cats}</select></label> '
                f'<label>Breed <input type="text" name="breed"></label> <label>Where (area or postcode) <input type="text" name="area"></label> '
                f'<label>Your phone <input type="text" name="phone"></label> <input type="submit" value="Send report"></form>'
            )
        elif kind == "donate":
            action, method = rng.choice(["/donate/process", "/give"]), "post"
            h = (
                f'<form action="{action}" method="post"><p>Choose an amount: '
                + "".join(f'<label><input type="radio" name="amount" value="{a}"> {a} pounds</label> ' for a in (5, 10, 25, 50))
                + '<label>Other <input type="text" name="other_amount" size="5"></label></p>'
                '<label><input type="checkbox" name="giftaid" value="1"> Add Gift Aid</label> <input type="submit" value="Donate now"></form>'
            )
        else:
            return self._fresh2_form(site, kind, rng)
        site.actions[action] = Action(kind, "none")
        return h, (action, method, kind, "none")

    def _plan_traits(self, topic: str, hosts: list[str], placements: list[str], cgi_index: int) -> None:
        """heldout6/7: which new shapes each topic site has. Each shape is on at least one of the
        scored topic's five sites (a select-only form on a site below the home page, an
        availability form, a form without an action, an action in another application path, a
        home page of news on a site whose form is two or three links down, a quick search in
        the header whose results page links to an advanced search); on the other
        topics' sites at random."""
        trng = random.Random(f"{self.seed}-traits-{topic}")
        idx = list(range(len(hosts)))
        traits: list[dict] = [
            {"style": trng.choice([0, 1, 2, 3, 4, 5, 6, 7, 8]), "newsy": trng.random() < 0.3, "pref": trng.random() < 0.4} for _ in idx
        ]
        deep = [i for i in idx if placements[i] != "home" and i != cgi_index]
        if topic == self.topic:
            select_only = trng.choice([i for i in idx if placements[i] != "home"])
            traits[select_only]["style"] = 7
            traits[trng.choice([i for i in idx if i != select_only])]["style"] = 8
            noaction = trng.choice(deep)
            traits[noaction]["noaction"] = True
            traits[trng.choice([i for i in deep if i != noaction])]["app_action"] = True
            traits[trng.choice([i for i in idx if placements[i] in ("d2", "d3")])]["newsy"] = True
            traits[placements.index("home")]["compact"] = True  # a quick search whose results link to an advanced search
        else:
            for i in deep:
                r = trng.random()
                traits[i]["noaction" if r < 0.25 else "app_action" if r < 0.5 else "plain"] = True
        for host, tr in zip(hosts, traits, strict=True):
            self.traits[host] = tr

    def _fresh2_search_form(self, topic: str, action: str, method: str, style: int, rng: random.Random, compact: bool) -> tuple[str, list]:
        """Search forms of heldout6/7: 7 = only select lists and a button (no text box), with or
        without labels (the first option says what the list is); 8 = an availability form (a
        place or name, an arrival date, nights and guests, a category) as booking engines have."""
        t = TOPICS[topic]
        labels = t.get("labels", {"category": "Category", "format": "Format", "price": "Price range"})
        fields: list = []
        if style == 7:
            lists = [("category", rng.choice(["type", "cat", "range", "collection", "group"]), t["categories"][:8])]
            if not compact:
                lists += rng.sample(
                    [
                        ("format", rng.choice(["size", "cond", "board", "fmt"]), t["formats"]),
                        ("price", rng.choice(["price", "budget"]), t["prices"]),
                    ],
                    rng.choice([1, 2]),
                )
            labelled = rng.random() < 0.5
            parts = []
            for role, name, options in lists:
                fields.append((name, role))
                first = f"-- {labels[role]} --" if not labelled else rng.choice(["Any", "All"])
                opts = f'<option value="">{E(first)}</option>' + "".join(f'<option value="{slug(o)}">{E(o)}</option>' for o in options)
                sel = f'<select name="{name}">{opts}</select>'
                parts.append(f"<label>{E(labels[role])} {sel}</label> " if labelled else sel + " ")
            btn = rng.choice(["Go", "View", "Show", f"Show {t['plural']}", "Update list"])
            head = (
                f"<h3>{E(rng.choice(['Browse by ' + labels['category'].lower(), 'Filter', 'Narrow the list']))}</h3>" if not compact else ""
            )
            return (
                f'<form action="{action}" method="{method}" class="filters">{head}{"".join(parts)}<input type="submit" value="{E(btn)}"></form>',
                fields,
            )
        name, label = t["text_fields"][0]
        fields.append((name, "text"))
        # hotels ask for arrival, nights and guests; other shops for a date and a quantity
        date_name, date_label, n_name, n_label, g_name, g_label = (
            ("arrive", "Arrival", "nights", "Nights", "guests", "Guests")
            if topic == "hotels"
            else ("from", "Available from", "qty", "Quantity", "dist", "Within (miles)")
        )
        nights = "".join(
            f'<option value="{i}">{i}{(" night" + ("s" if i > 1 else "")) if topic == "hotels" else ""}</option>' for i in range(1, 8)
        )
        guests = "".join(f'<option value="{i}"{" selected" if i == 2 else ""}>{i}</option>' for i in range(1, 7))
        parts = [
            f'<div class="field"><label for="av-{name}">{E(label)}</label><input type="text" id="av-{name}" name="{name}" placeholder="{E(rng.choice(t["placeholders"]))}"></div>',
            f'<div class="field"><label for="av-arrive">{date_label}</label><input type="date" id="av-arrive" name="{date_name}"></div>',
            f'<div class="field"><label for="av-n">{n_label}</label><select id="av-n" name="{n_name}">{nights}</select></div>',
        ]
        fields += [(date_name, "other"), (n_name, "other")]
        if not compact:
            parts.append(f'<div class="field"><label for="av-g">{g_label}</label><select id="av-g" name="{g_name}">{guests}</select></div>')
            fields.append((g_name, "other"))
            opts = '<option value="">Any</option>' + "".join(f'<option value="{slug(o)}">{E(o)}</option>' for o in t["categories"][:8])
            parts.append(
                f'<div class="field"><label for="av-t">{E(labels["category"])}</label><select id="av-t" name="stay">{opts}</select></div>'
            )
            fields.append(("stay", "category"))
        hid = f'<input type="hidden" name="chain" value="{rng.randrange(100, 999)}"><input type="hidden" name="lang" value="en-GB">'
        btn = t.get("avail_button", "Check availability")
        return (
            f'<form action="{action}" method="{method}" class="booking-bar">{"".join(parts)}{hid}<button type="submit">{E(btn)}</button></form>',
            fields,
        )

    def _fresh2_form(self, site: Site, kind: str, rng: random.Random) -> tuple[str, tuple]:
        """Forms of heldout6/7 that are not searches of records."""
        if kind == "preference":  # GET, a select list and a button: like a select-only search
            action, method = rng.choice(["/set-currency", "/prefs", "/delivery-country"]), "get"
            what = rng.choice(
                [("currency", "Currency", ["GBP", "EUR", "USD"]), ("country", "Deliver to", ["United Kingdom", "Ireland", "France"])]
            )
            opts = "".join(f'<option value="{slug(o)}">{E(o)}</option>' for o in what[2])
            h = f'<form class="prefs" action="{action}" method="get"><label>{what[1]} <select name="{what[0]}">{opts}</select></label> <input type="submit" value="Update"></form>'
        elif kind == "voucher":  # GET lookup of one voucher
            action, method = rng.choice(["/vouchers/balance", "/gift/check"]), "get"
            h = (
                f'<form action="{action}" method="get"><label>Voucher code <input type="text" name="code"></label> '
                '<label>PIN <input type="text" name="pin" size="4"></label> <input type="submit" value="Check balance"></form>'
            )
        elif kind == "delivery":  # GET, a postcode: "do you deliver to me?"
            action, method = "/delivery/check", "get"
            h = '<form action="/delivery/check" method="get"><label>Your postcode <input type="text" name="postcode"></label> <input type="submit" value="Check delivery"></form>'
        elif kind == "enquiry":
            action, method = "/plant-doctor/ask", "post"
            h = (
                '<form action="/plant-doctor/ask" method="post" enctype="multipart/form-data"><label>Plant name (if known) <input type="text" name="plant"></label> '
                '<label>What is wrong? <textarea name="problem"></textarea></label> <label>Photo <input type="file" name="photo"></label> '
                '<label>Email <input type="email" name="email"></label> <input type="submit" value="Ask the plant doctor"></form>'
            )
        elif kind in ("booking", "table"):  # a reservation: date, time, party size
            action = rng.choice(["/book/request", "/reservations/new", "/bookings/make"])
            method = "get" if kind == "table" else "post"
            times = "".join(f"<option>{h}:00</option>" for h in range(9, 22, 2))
            h = (
                f'<form action="{action}" method="{method}"><label>Date <input type="date" name="date"></label> '
                f'<label>Time <select name="time">{times}</select></label> <label>People <select name="size">'
                + "".join(f"<option>{i}</option>" for i in range(1, 9))
                + '</select></label> <label>Name <input type="text" name="name"></label> <label>Phone <input type="tel" name="phone"></label> '
                f'<input type="submit" value="{"Find a table" if kind == "table" else "Request booking"}"></form>'
            )
        elif kind == "donate":
            action, method = "/donate/give", "post"
            h = (
                '<form action="/donate/give" method="post"><p>'
                + "".join(f'<label><input type="radio" name="amount" value="{a}"> {a} pounds</label> ' for a in (5, 10, 20))
                + '</p><label>Name <input type="text" name="name"></label> <input type="submit" value="Give now"></form>'
            )
        elif kind == "payment":
            action, method = "/parking/pay", "post"
            h = (
                '<form action="/parking/pay" method="post"><label>Penalty notice number <input type="text" name="pcn"></label> '
                '<label>Vehicle registration <input type="text" name="vrm"></label> <input type="submit" value="Pay now"></form>'
            )
        elif kind == "competition":
            action, method = "/competitions/enter", "post"
            h = (
                '<form action="/competitions/enter" method="post"><p>Win a weekend away for two! Where is the Eden Project?</p>'
                + "".join(f'<label><input type="radio" name="answer" value="{a}"> {a}</label> ' for a in ("Cornwall", "Kent", "Fife"))
                + '<label>Name <input type="text" name="name"></label> <label>Email <input type="email" name="email"></label> '
                '<input type="submit" value="Enter now"></form>'
            )
        elif kind in ("locale", "calculator", "order", "watch", "problem", "unsubscribe", "poll"):
            return self._fresh3_form(site, kind, rng)
        else:
            return self._fresh4_form(site, kind, rng)
        site.actions[action] = Action("donate" if kind == "donate" else "booking" if kind == "table" else kind, "none")
        return h, (action, method, site.actions[action].kind, "none")

    def _plan_traits3(self, topic: str, hosts: list[str], placements: list[str], cgi_index: int) -> None:
        """heldout8/9: which shapes each topic site has. On the scored topic's five sites: the home
        site's quick search (in every page's header, fields named by aria-label only) whose results
        page links to an advanced search; below the home page a form of facet check boxes only, a
        form of placeholder-only fields sent by POST, and a form whose action is on a search
        sub-host; a poll and a locale form on some sites. On the other topics' sites at random."""
        trng = random.Random(f"{self.seed}-traits3-{topic}")
        idx = list(range(len(hosts)))
        home = placements.index("home")
        traits: list[dict] = [
            {
                "style": trng.choice([0, 1, 2, 3, 4, 5, 6, 10] if i == home else [0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 11]),
                "newsy": trng.random() < 0.25,
                "pref": trng.random() < 0.4,
                "poll": trng.random() < 0.3,
            }
            for i in idx
        ]
        deep = [i for i in idx if placements[i] != "home" and i != cgi_index]
        if topic == self.topic:
            # the three sites below the home page whose action robots.txt allows: facets, POST, sub-host
            facet, post, sub = trng.sample([i for i in idx if i not in (home, cgi_index)], 3)
            for i in idx:
                if i not in (home, facet, post):
                    traits[i]["style"] = trng.choice([0, 1, 2, 3, 4, 5, 6])
            traits[facet]["style"] = 9
            traits[post]["style"] = 11
            traits[home]["style"] = 10
            traits[home]["compact"] = True  # a quick search whose results link to an advanced search
            traits[sub]["subhost"] = True
            traits[trng.choice(idx)]["poll"] = True
            traits[trng.choice(idx)]["pref"] = True
        else:
            for i in deep:
                r = trng.random()
                traits[i]["noaction" if r < 0.2 else "app_action" if r < 0.4 else "subhost" if r < 0.6 else "plain"] = True
        for i in idx:
            if traits[i]["style"] == 11:
                traits[i]["method"] = "post"
        for host, tr in zip(hosts, traits, strict=True):
            self.traits[host] = tr

    def _fresh3_search_form(self, topic: str, action: str, method: str, style: int, rng: random.Random, compact: bool) -> tuple[str, list]:
        """Search forms of heldout8/9: 9 = check boxes of the record types only (facets) and a
        button, no text box; 10 = fields named by aria-label only (no label, placeholder or title);
        11 = placeholder-only fields, a select whose first option names it, a hidden token (POST)."""
        t = TOPICS[topic]
        labels = t.get("labels", {"category": "Category", "format": "Format", "price": "Price range"})
        fields: list = []
        if style == 9:
            name = rng.choice(["type", "facet", "f", "filter", "rt"])
            fields.append((name, "facet"))
            boxes = "".join(
                f'<li><label><input type="checkbox" name="{name}" value="{slug(c)}"> {E(c)}</label></li>' for c in t["categories"]
            )
            groups = f'<fieldset class="facet"><legend>{E(labels["category"])}</legend><ul>{boxes}</ul></fieldset>'
            if not compact and rng.random() < 0.6:
                name2 = rng.choice(["avail", "status", "fmt", "kind"])
                fields.append((name2, "facet_format"))
                boxes = "".join(
                    f'<li><label><input type="checkbox" name="{name2}" value="{slug(c)}"> {E(c)}</label></li>' for c in t["formats"]
                )
                groups += f'<fieldset class="facet"><legend>{E(labels["format"])}</legend><ul>{boxes}</ul></fieldset>'
            btn = rng.choice(["Apply filters", f"Show {t['plural']}", "Update results", "Apply"])
            return (
                f'<form action="{action}" method="{method}" class="facets" id="browse">{groups}<button type="submit" class="btn">{E(btn)}</button></form>',
                fields,
            )
        if style == 10:
            parts = []
            for name, label in rng.sample(t["text_fields"], 1 if compact else rng.choice([1, 2])):
                fields.append((name, "text"))
                parts.append(f'<input type="text" name="{name}" aria-label="{E(label)}" class="input">')
            if not compact:
                sname = rng.choice(["cat", "type", "c"])
                fields.append((sname, "category"))
                opts = '<option value="">All</option>' + "".join(f'<option value="{slug(o)}">{E(o)}</option>' for o in t["categories"][:8])
                parts.append(f'<select name="{sname}" aria-label="{E(labels["category"])}">{opts}</select>')
            submit = rng.choice(
                ['<button type="submit">Go</button>', '<input type="submit" value="Search">', '<button type="submit">Find</button>']
            )
            return (f'<form action="{action}" method="{method}" class="bar">{"".join(parts)}{submit}</form>', fields)
        parts = []
        for name, label in rng.sample(t["text_fields"][:3], 2 if compact else 3):
            fields.append((name, "text"))
            parts.append(f'<input type="text" name="{name}" placeholder="{E(label)}">')
        if topic in ("genealogy", "patents"):
            yl = "year" if topic == "genealogy" else "filing year"
            parts.append(
                f'<input type="number" name="yfrom" placeholder="From {yl}"> <input type="number" name="yto" placeholder="To {yl}">'
            )
            fields += [("yfrom", "other"), ("yto", "other")]
        if not compact:
            fields.append(("rtype", "category"))
            opts = f'<option value="">{E(labels["category"])}: all</option>' + "".join(
                f'<option value="{slug(o)}">{E(o)}</option>' for o in t["categories"]
            )
            parts.append(f'<select name="rtype">{opts}</select>')
        hid = f'<input type="hidden" name="_token" value="{rng.randrange(16**16):016x}">'
        submit = rng.choice(
            ['<input type="submit" value="Search">', '<button type="submit">Search</button>', '<input type="submit" value="Find">']
        )
        return (f'<form action="{action}" method="{method}" class="stacked">{hid}{"".join(parts)} {submit}</form>', fields)

    def _fresh3_form(self, site: Site, kind: str, rng: random.Random) -> tuple[str, tuple]:
        """Forms of heldout8/9 that are not searches of records: a locale form of two selects, a
        calculator (shipping, fees, credits, insurance), a certificate order (fields like a record
        search), watching a record, reporting a problem, unsubscribing, a poll."""
        t = TOPICS.get(site.topic, {})
        if kind == "locale":  # GET, two selects and a button
            action, method = rng.choice(["/locale", "/settings/region", "/i18n/set"]), "get"
            langs = "".join(f"<option>{x}</option>" for x in ("English", "Cymraeg", "Deutsch", "Francais"))
            regions = "".join(f"<option>{x}</option>" for x in ("United Kingdom", "Ireland", "Europe", "Rest of world"))
            h = (
                f'<form class="locale" action="{action}" method="get"><select name="lang" aria-label="Language">{langs}</select>'
                f'<select name="region" aria-label="Region">{regions}</select><button type="submit">Save</button></form>'
            )
            kind = "preference"
        elif kind == "calculator":  # GET, the topic's select and a number: an estimate, not records
            action, method = rng.choice(["/calculator", "/estimate", "/costs/calculate"]), "get"
            cats = "".join(f'<option value="{slug(c)}">{E(c)}</option>' for c in t.get("categories", ["Standard"])[:6])
            what = {
                "genealogy": ("Records you view a month", "n", "Plan"),
                "patents": ("Number of claims", "claims", "Classification"),
                "bicycles": ("Your postcode", "postcode", "Bike type"),
                "boats": ("Value of the boat (pounds)", "value", "Boat type"),
            }.get(site.topic, ("Quantity", "qty", "Type"))
            h = (
                f'<form action="{action}" method="get" class="calc"><label>{E(what[0])} <input type="text" name="{what[1]}" size="6"></label> '
                f'<label>{E(what[2])} <select name="band">{cats}</select></label> <input type="submit" value="Calculate"></form>'
            )
        elif kind == "order":  # POST, shaped like a record search: a certificate order
            action, method = "/certificates/order", "post"
            types = "".join(f"<option>{x}</option>" for x in ("Birth certificate", "Marriage certificate", "Death certificate"))
            h = (
                f'<form action="{action}" method="post"><label>Surname <input type="text" name="surname"></label> '
                '<label>Forename(s) <input type="text" name="forename"></label> <label>Year of event <input type="text" name="year"></label> '
                f'<label>Registration district <input type="text" name="district"></label> <label>Certificate <select name="cert">{types}</select></label> '
                '<label>Copies <select name="copies"><option>1</option><option>2</option><option>3</option></select></label> '
                '<label>Your email <input type="email" name="email"></label> <input type="submit" value="Order certificate"></form>'
            )
        elif kind == "watch":  # GET, one record's number and an email
            action, method = "/watch/add", "get"
            h = (
                f'<form action="{action}" method="get"><label>{E(t.get("id_label", "Number"))} <input type="text" name="pubno"></label> '
                '<label>Email <input type="email" name="email"></label> <input type="submit" value="Watch"></form>'
            )
        elif kind == "problem":  # GET, a select of problem types and a description
            action, method = rng.choice(["/report-a-problem/send", "/feedback/problem"]), "get"
            probs = "".join(
                f"<option>{x}</option>" for x in ("A link is broken", "The information is wrong", "The page did not load", "Something else")
            )
            h = (
                f'<form action="{action}" method="get"><input type="hidden" name="page" value="/"><label>What went wrong? <select name="problem">{probs}</select></label> '
                '<label>Details <textarea name="details" rows="3"></textarea></label> <input type="submit" value="Send report"></form>'
            )
        elif kind == "unsubscribe":  # GET, an email and a reason
            action, method = rng.choice(["/unsubscribe/confirm", "/newsletter/unsubscribe"]), "get"
            reasons = "".join(f"<option>{x}</option>" for x in ("Too many emails", "Not relevant to me", "I never signed up", "Other"))
            h = (
                f'<form action="{action}" method="get"><label>Email address <input type="email" name="email"></label> '
                f'<label>Reason <select name="reason">{reasons}</select></label> <input type="submit" value="Unsubscribe"></form>'
            )
        elif kind == "poll":  # GET, radio buttons and "Vote"
            action, method = rng.choice(["/poll/vote", "/polls/submit"]), "get"
            opts = rng.choice(
                [
                    ("How did you hear about us?", ["A friend", "A search engine", "A magazine", "Social media"]),
                    ("How often do you visit?", ["Every week", "Every month", "A few times a year", "First visit"]),
                    ("What should we add next?", ["More records", "Better photos", "An app", "Evening opening"]),
                ]
            )
            h = (
                f'<div class="poll"><h3>Quick poll</h3><form action="{action}" method="get"><p>{E(opts[0])}</p>'
                + "".join(f'<label><input type="radio" name="choice" value="{slug(o)}"> {E(o)}</label><br>' for o in opts[1])
                + '<input type="hidden" name="poll" value="7"><input type="submit" value="Vote"></form></div>'
            )
        else:
            raise ValueError(kind)
        site.actions[action] = Action(kind, "none")
        return h, (action, method, kind, "none")

    # ------------------------------------------------------------------ heldout10-12
    def _plan_traits4(self, topic: str, hosts: list[str], placements: list[str], cgi_index: int) -> None:
        """heldout10-12: which shapes each topic site has. On the scored topic's five sites: the
        home page's form in a hero box at the end of a long page of news and blog-archive links (a
        catalogue search with a "search in" select and hidden fields); the depth-1 form's page
        linked only from a small box on the home page; of the two depth-2 forms, one on a site
        whose news, blog and press links come first in the menu and the home page, the other on a
        page with a login box before it and a search-alert form after it; the depth-3 form an
        ASP.NET WebForms search (POST, hidden __VIEWSTATE, relative action). Elsewhere at random."""
        trng = random.Random(f"{self.seed}-traits4-{topic}")
        idx = list(range(len(hosts)))
        home = placements.index("home")
        traits: list[dict] = [
            {
                "style": trng.choice([0, 1, 2, 3, 4, 5, 6, 12] if i == home else [0, 1, 2, 3, 4, 5, 6, 7, 9, 12, 13]),
                "newsy": trng.random() < 0.2,
                "pref": trng.random() < 0.3,
                "poll": trng.random() < 0.2,
                "newsfirst": trng.random() < 0.3,
                "box": placements[i] == "d1" and trng.random() < 0.5,
                "beside": placements[i] != "home" and trng.random() < 0.3,
            }
            for i in idx
        ]
        if topic == self.topic:
            d1, d3 = placements.index("d1"), placements.index("d3")
            d2a, d2b = trng.sample([i for i in idx if placements[i] == "d2"], 2)
            for tr in traits:
                tr.update(newsfirst=False, box=False, beside=False, newsy=False)
            traits[home].update(style=12, compact=False, newsfirst=True)
            traits[d1].update(box=True, style=trng.choice([0, 1, 2, 3, 5, 6]))
            traits[d2a].update(newsfirst=True, style=trng.choice([1, 2, 5, 6]))
            traits[d2b].update(beside=True, style=12)
            traits[d3].update(style=13)
            traits[trng.choice(idx)]["pref"] = True
            traits[trng.choice(idx)]["poll"] = True
        for i in idx:
            if traits[i]["style"] == 13:
                traits[i]["method"] = "post"
                traits[i]["relative"] = True
        for host, tr in zip(hosts, traits, strict=True):
            self.traits[host] = tr

    def _fresh4_search_form(self, topic: str, action: str, method: str, style: int, rng: random.Random, compact: bool) -> tuple[str, list]:
        """Search forms of heldout10-12: 12 = a library-catalogue search (a "search in" select
        beside the term box, a "limit to" select of categories, hidden database and format
        fields, in a table); 13 = an ASP.NET WebForms page (ctl00$... names, hidden __VIEWSTATE,
        __EVENTVALIDATION, a named submit button), sent by POST."""
        t = TOPICS[topic]
        labels = t.get("labels", {"category": "Category", "format": "Format", "price": "Price range"})
        fields: list = []
        if style == 12:
            term = rng.choice(["term", "lookfor", "searchterm", "query"])
            fields += [(term, "text"), ("idx", "other")]
            idx_opts = '<option value="kw">All fields</option>' + "".join(
                f'<option value="{slug(n)}">{E(label)}</option>' for n, label in t["text_fields"][:4] if n != "q"
            )
            rows = (
                f'<tr><td><select name="idx" aria-label="Search in">{idx_opts}</select></td>'
                f'<td><input type="text" name="{term}" size="40" placeholder="{E(rng.choice(t["placeholders"]))}"></td></tr>'
            )
            if not compact:
                lim = rng.choice(["limit", "coll", "area", "filter_cat"])
                fields.append((lim, "category"))
                opts = f'<option value="">All ({E(labels["category"].lower())})</option>' + "".join(
                    f'<option value="{slug(o)}">{E(o)}</option>' for o in t["categories"]
                )
                rows += (
                    f'<tr><td><label for="lim-{lim}">Limit to</label></td><td><select id="lim-{lim}" name="{lim}">{opts}</select></td></tr>'
                )
                if rng.random() < 0.5:
                    fields.append(("st", "format"))
                    opts = '<option value="">Any</option>' + "".join(f'<option value="{slug(o)}">{E(o)}</option>' for o in t["formats"])
                    rows += (
                        f'<tr><td><label for="st">{E(labels["format"])}</label></td><td><select id="st" name="st">{opts}</select></td></tr>'
                    )
            hid = (
                f'<input type="hidden" name="db" value="{slug(t["plural"])}"><input type="hidden" name="fmt" value="html">'
                f'<input type="hidden" name="ln" value="en">'
            )
            btn = rng.choice(["Search", "Go", f"Search {t['plural']}", "Find"])
            return (
                f'<form name="searchForm" action="{action}" method="{method}" class="catalogue-search">{hid}<table class="search-table">{rows}'
                f'<tr><td></td><td><input type="submit" value="{E(btn)}"> <input type="reset" value="Clear"></td></tr></table></form>',
                fields,
            )
        pre = "ctl00$MainContent$"
        fields.append((pre + "txtKeywords", "text"))
        parts = [
            f'<tr><td><label for="MainContent_txtKeywords">{E(t["text_fields"][0][1])}</label></td>'
            f'<td><input name="{pre}txtKeywords" type="text" id="MainContent_txtKeywords" class="textbox"></td></tr>'
        ]
        if not compact:
            name2, label2 = t["text_fields"][1]
            fields.append((pre + "txt" + name2.title(), "text"))
            parts.append(
                f'<tr><td><label for="MainContent_txt{name2.title()}">{E(label2)}</label></td>'
                f'<td><input name="{pre}txt{name2.title()}" type="text" id="MainContent_txt{name2.title()}" class="textbox"></td></tr>'
            )
            fields.append((pre + "ddlCategory", "category"))
            opts = '<option selected="selected" value="">(All)</option>' + "".join(
                f'<option value="{slug(o)}">{E(o)}</option>' for o in t["categories"]
            )
            parts.append(
                f'<tr><td><label for="MainContent_ddlCategory">{E(labels["category"])}</label></td>'
                f'<td><select name="{pre}ddlCategory" id="MainContent_ddlCategory">{opts}</select></td></tr>'
            )
            fields.append((pre + "ddlStatus", "price"))
            opts = '<option selected="selected" value="">(Any)</option>' + "".join(
                f'<option value="{slug(o)}">{E(o)}</option>' for o in t["prices"]
            )
            parts.append(
                f'<tr><td><label for="MainContent_ddlStatus">{E(labels["price"])}</label></td>'
                f'<td><select name="{pre}ddlStatus" id="MainContent_ddlStatus">{opts}</select></td></tr>'
            )
        state = hashlib.sha256(f"{action}{rng.random()}".encode()).hexdigest()
        hid = (
            '<div class="aspNetHidden"><input type="hidden" name="__EVENTTARGET" id="__EVENTTARGET" value="">'
            '<input type="hidden" name="__EVENTARGUMENT" id="__EVENTARGUMENT" value="">'
            f'<input type="hidden" name="__VIEWSTATE" id="__VIEWSTATE" value="/wEPDwUK{state[:40]}==">'
            f'<input type="hidden" name="__VIEWSTATEGENERATOR" id="__VIEWSTATEGENERATOR" value="{state[40:48].upper()}">'
            f'<input type="hidden" name="__EVENTVALIDATION" id="__EVENTVALIDATION" value="/wEdAAk{state[48:]}"></div>'
        )
        return (
            f'<form method="{method}" action="{action}" id="aspnetForm">{hid}<table class="searchPanel">{"".join(parts)}'
            f'<tr><td></td><td><input type="submit" name="{pre}btnSearch" value="Search" id="MainContent_btnSearch"> '
            f'<input type="submit" name="{pre}btnClear" value="Clear" id="MainContent_btnClear"></td></tr></table></form>',
            fields,
        )

    def _fresh4_form(self, site: Site, kind: str, rng: random.Random) -> tuple[str, tuple]:
        """Forms of heldout10-12 that are not searches of records: search alerts, a volunteer
        register and an eligibility checker (full of the topic's conditions), transcript orders,
        ticket booking, image licensing, citation export, cookie settings."""
        t = TOPICS.get(site.topic, {})
        cats = "".join(f'<option value="{slug(c)}">{E(c)}</option>' for c in t.get("categories", ["General"])[:8])
        label = t.get("labels", {}).get("category", "Category")
        if kind == "alert":  # GET: an email and the topic's select, "Create alert"
            action, method = rng.choice(["/alerts/create", "/my/alerts/new", "/notify/subscribe"]), "get"
            h = (
                f'<form action="{action}" method="get" class="alert-form"><label>Email <input type="email" name="email"></label> '
                f'<label>{E(label)} <select name="area">{cats}</select></label> <label>How often <select name="freq"><option>Daily</option>'
                '<option selected>Weekly</option><option>Monthly</option></select></label> <input type="submit" value="Create alert"></form>'
            )
        elif kind == "volunteer":  # POST, shaped like a search: condition, age, postcode
            action, method = "/volunteers/register", "post"
            h = (
                f'<form action="{action}" method="post"><label>Name <input type="text" name="name"></label> '
                f'<label>Condition or disease <select name="condition">{cats}</select></label> <label>Age <input type="text" name="age" size="3"></label> '
                '<label>Town or postcode <input type="text" name="location"></label> <label>Email <input type="email" name="email"></label> '
                '<input type="submit" value="Register"></form>'
            )
        elif kind == "eligibility":  # GET: age, sex and a condition: a checker, not a search
            action, method = "/eligibility/check", "get"
            h = (
                f'<form action="{action}" method="get"><label>Your age <input type="number" name="age"></label> '
                '<label>Sex <select name="sex"><option>Female</option><option>Male</option><option>Prefer not to say</option></select></label> '
                f'<label>Health area <select name="area">{cats}</select></label> <input type="submit" value="Check"></form>'
            )
        elif kind == "transcript":  # POST: a case name, citation, court
            action, method = "/transcripts/order", "post"
            courts = "".join(f"<option>{E(c)}</option>" for c in t.get("creators", ["Court"])[:6])
            h = (
                f'<form action="{action}" method="post"><label>Case name <input type="text" name="parties"></label> '
                f'<label>Neutral citation <input type="text" name="citation"></label> <label>Court <select name="court">{courts}</select></label> '
                '<label>Hearing date <input type="date" name="date"></label> <label>Email <input type="email" name="email"></label> '
                '<input type="submit" value="Request a quote"></form>'
            )
        elif kind == "tickets":  # GET: a date and numbers of visitors
            action, method = "/tickets/availability", "get"
            n = "".join(f"<option>{i}</option>" for i in range(0, 7))
            h = (
                f'<form action="{action}" method="get"><label>Date of visit <input type="date" name="date"></label> '
                f'<label>Adults <select name="adults">{n}</select></label> <label>Children <select name="children">{n}</select></label> '
                '<input type="submit" value="Check availability"></form>'
            )
        elif kind == "imagerequest":  # POST: an accession number and a use
            action, method = "/picture-library/request", "post"
            h = (
                f'<form action="{action}" method="post"><label>Accession number <input type="text" name="acc"></label> '
                '<label>Object name <input type="text" name="object"></label> <label>Use <select name="use"><option>Book or magazine</option>'
                "<option>Website</option><option>Exhibition</option><option>Private study</option></select></label> "
                '<label>Email <input type="email" name="email"></label> <input type="submit" value="Send request"></form>'
            )
        elif kind == "export":  # GET: a DOI and a citation format
            action, method = "/export/citation", "get"
            h = (
                f'<form action="{action}" method="get"><label>DOI <input type="text" name="doi"></label> <label>Format <select name="format">'
                '<option>BibTeX</option><option>RIS</option><option>EndNote</option></select></label> <input type="submit" value="Export"></form>'
            )
        elif kind == "cookies":  # GET: radio buttons, "Save"
            action, method = "/cookies/save", "get"
            h = (
                f'<form action="{action}" method="get" class="cookie-settings"><p>Analytics cookies</p>'
                '<label><input type="radio" name="analytics" value="on"> On</label> <label><input type="radio" name="analytics" value="off" checked> Off</label> '
                '<input type="submit" value="Save cookie settings"></form>'
            )
            kind = "preference"
        else:
            return self._fresh5_form(site, kind, rng)
        site.actions[action] = Action(kind, "none")
        return h, (action, method, kind, "none")

    # ------------------------------------------------------------------ heldout13-15
    def _plan_traits5(self, topic: str, hosts: list[str], placements: list[str], cgi_index: int) -> None:
        """heldout13-15: which shapes each topic site has. On the scored topic's five sites: on the
        home page a tabbed widget of three forms (the record search in an app's markup, the branch
        finder, a form that is not a search); a listing page of the records whose filter form
        submits to the page itself (on a site whose action robots.txt allows); a search page with a
        cookie form and a booking / registration / alert form before the search (the site whose
        action robots.txt disallows); a search posting to an application sub-host (portal.NAME.test);
        at depth 3 a step-one wizard of radio buttons, on a site whose site search is run by a hosted
        search service (search.NAME.test). Elsewhere at random."""
        trng = random.Random(f"{self.seed}-traits5-{topic}")
        idx = list(range(len(hosts)))
        home = placements.index("home")
        traits: list[dict] = [
            {
                "style": trng.choice([0, 1, 2, 3, 4, 5, 6, 12, 15] if i == home else [0, 1, 2, 3, 4, 5, 6, 7, 12, 14, 15, 16]),
                "newsy": trng.random() < 0.15,
                "pref": trng.random() < 0.3,
                "poll": trng.random() < 0.15,
                "newsfirst": trng.random() < 0.2,
                "box": placements[i] == "d1" and trng.random() < 0.3,
                "beside": placements[i] != "home" and trng.random() < 0.15,
                "beside2": placements[i] != "home" and trng.random() < 0.25,
                "hosted": trng.random() < 0.35,
                "tabs3": i == home and trng.random() < 0.5,
            }
            for i in idx
        ]
        if topic == self.topic:
            for tr in traits:
                tr.update(newsfirst=False, box=False, beside=False, beside2=False, newsy=False, tabs3=False, hosted=False)
            d3 = placements.index("d3")
            mids = [i for i in idx if placements[i] in ("d1", "d2")]
            free = [i for i in mids if i != cgi_index]
            listing = placements.index("d1") if placements.index("d1") != cgi_index else free[0]
            subhost = next(i for i in free if i != listing)
            traits[home].update(tabs3=True, style=15, compact=False)
            traits[listing].update(listing=True, style=14, method="get")
            traits[subhost].update(subhost=True, style=15, method="post")
            traits[cgi_index].update(beside2=True, style=trng.choice([1, 2, 3, 5, 12]))
            traits[d3].update(style=16, hosted=True)
            traits[trng.choice(idx)]["pref"] = True
        for host, tr in zip(hosts, traits, strict=True):
            self.traits[host] = tr

    def _fresh5_search_form(self, topic: str, action: str, method: str, style: int, rng: random.Random, compact: bool) -> tuple[str, list]:
        """Search forms of heldout13-15: 14 = a filter sidebar (keywords, selects, "Update
        results"); 15 = a modern app's markup (visually hidden labels, a type=search box, selects
        named by aria-label, generated ids, a hidden state field, a button with a span); 16 = step
        one of a wizard: two sets of radio buttons and a button, no text box."""
        t = TOPICS[topic]
        labels = t.get("labels", {"category": "Category", "format": "Format", "price": "Price range"})
        fields: list = []
        if style == 14:
            kw = rng.choice(["keywords", "kw", "search"])
            cat = rng.choice(["type", "category", "theme", "filter[type]"])
            band = rng.choice(["band", "range", "filter[band]"])
            fields += [(kw, "text"), (cat, "category"), (band, "price"), ("order", "other")]
            copts = '<option value="">Any</option>' + "".join(f'<option value="{slug(o)}">{E(o)}</option>' for o in t["categories"])
            popts = '<option value="">Any</option>' + "".join(f'<option value="{slug(o)}">{E(o)}</option>' for o in t["prices"])
            h = (
                f'<form action="{action}" method="{method}" class="filter-form">'
                f'<div class="filter-group"><label for="flt-kw">Keywords</label><input id="flt-kw" type="text" name="{kw}"></div>'
                f'<div class="filter-group"><label for="flt-cat">{E(labels["category"])}</label><select id="flt-cat" name="{cat}">{copts}</select></div>'
                f'<div class="filter-group"><label for="flt-band">{E(labels["price"])}</label><select id="flt-band" name="{band}">{popts}</select></div>'
                '<div class="filter-group"><label for="flt-order">Order by</label><select id="flt-order" name="order">'
                '<option value="newest">Newest first</option><option value="az">A to Z</option></select></div>'
                f'<button type="submit" class="btn btn-secondary">{E(rng.choice(["Update results", "Apply filters", "Filter"]))}</button></form>'
            )
            return h, fields
        if style == 15:
            name, label = rng.choice(t["text_fields"][:3])
            fields.append((name, "text"))
            uid = rng.randrange(10, 99)
            parts = [
                f'<div class="sc-{uid}a field"><label class="visually-hidden" for=":r{uid}:">{E(label)}</label>'
                f'<input id=":r{uid}:" type="search" name="{name}" placeholder="{E(rng.choice(t["placeholders"]))}" enterkeyhint="search" autocomplete="off"></div>'
            ]
            if not compact:
                for role, nm in (
                    ("category", rng.choice(["category", "type", "sector"])),
                    ("price", rng.choice(["band", "price", "level"])),
                ):
                    opts_src = t["categories"] if role == "category" else t["prices"]
                    fields.append((nm, role))
                    opts = f'<option value="">{E(labels[role])}: any</option>' + "".join(
                        f'<option value="{slug(o)}">{E(o)}</option>' for o in opts_src
                    )
                    parts.append(f'<div class="sc-{uid}b field"><select name="{nm}" aria-label="{E(labels[role])}">{opts}</select></div>')
            state = hashlib.sha256(f"{action}{uid}".encode()).hexdigest()[:24]
            h = (
                f'<form action="{action}" method="{method}" class="sc-{uid}x" data-testid="search-form" novalidate>{"".join(parts)}'
                f'<input type="hidden" name="_state" value="{state}">'
                f'<button type="submit" class="sc-{uid}c" data-testid="search-submit"><span>{E(rng.choice(["Search", "Go", "Show results"]))}</span></button></form>'
            )
            return h, fields
        cat = rng.choice(["sector", "what", "cat"])
        fmt = rng.choice(["kind", "type", "fmt"])
        fields += [(cat, "category"), (fmt, "format"), ("step", "other")]
        r1 = "".join(f'<label class="radio"><input type="radio" name="{cat}" value="{slug(o)}"> {E(o)}</label>' for o in t["categories"])
        r2 = "".join(f'<label class="radio"><input type="radio" name="{fmt}" value="{slug(o)}"> {E(o)}</label>' for o in t["formats"])
        h = (
            f'<form action="{action}" method="{method}" class="wizard"><input type="hidden" name="step" value="1">'
            f'<p class="step">Step 1 of 2</p><fieldset><legend>{E(labels["category"])}</legend>{r1}</fieldset>'
            f"<fieldset><legend>{E(labels['format'])}</legend>{r2}</fieldset>"
            f'<button type="submit" name="next" value="1">{E(t.get("avail_button") or "Next")}</button></form>'
        )
        return h, fields

    def _fresh5_form(self, site: Site, kind: str, rng: random.Random) -> tuple[str, tuple]:
        """Forms of heldout13-15 that are not searches of records: quote and price calculators,
        availability checks, viewings, event registrations, valuations, funding eligibility
        checks, reports of unsafe products."""
        t = TOPICS.get(site.topic, {})
        cats = "".join(f'<option value="{slug(c)}">{E(c)}</option>' for c in t.get("categories", ["General"])[:8])
        label = t.get("labels", {}).get("category", "Category")
        if kind == "quote":  # GET: numbers and a select; answers with a price, not records
            action, method = rng.choice(["/quote/calculate", "/calculator", "/estimate"]), "get"
            h = (
                f'<form action="{action}" method="get" class="calculator"><h3>{E(rng.choice(["Get a quote", "Price calculator", "How much will it cost?"]))}</h3>'
                f'<label>{E(label)} <select name="what">{cats}</select></label> '
                '<label>Amount or size <input type="number" name="amount"></label> <label>Postcode <input type="text" name="postcode" size="8"></label> '
                '<input type="submit" value="Calculate"></form>'
            )
        elif kind == "availability":  # GET: a date and numbers; answers available or not
            action, method = rng.choice(["/availability/check", "/check-dates"]), "get"
            n = "".join(f"<option>{i}</option>" for i in range(1, 9))
            h = (
                f'<form action="{action}" method="get"><label>Date <input type="date" name="date"></label> '
                f'<label>Nights <select name="nights">{n}</select></label> <label>Guests <input type="number" name="guests" value="2"></label> '
                '<input type="submit" value="Check availability"></form>'
            )
        elif kind == "viewing":  # POST: a property reference, a date and a time
            action, method = rng.choice(["/viewings/book", "/book-viewing"]), "post"
            times = "".join(f"<option>{h_}:00</option>" for h_ in range(9, 19))
            h = (
                f'<h3>Book a viewing</h3><form action="{action}" method="post"><label>Property reference <input type="text" name="ref"></label> '
                f'<label>Preferred date <input type="date" name="date"></label> <label>Time <select name="time">{times}</select></label> '
                '<label>Name <input type="text" name="name"></label> <label>Phone <input type="tel" name="phone"></label> '
                '<input type="submit" value="Request viewing"></form>'
            )
        elif kind == "registration":  # POST: an event (dates in a select), name, email
            action, method = rng.choice(["/events/register", "/workshops/book", "/register-place"]), "post"
            evs = "".join(
                f"<option>{E(x)} - {d} {m} 2027</option>"
                for x, d, m in zip(
                    ["Writing a winning bid", "Open day", "Budgets and reporting", "Meet the team"],
                    (12, 19, 3, 24),
                    ("January", "February", "March", "March"),
                    strict=True,
                )
            )
            h = (
                f'<h3>{E(rng.choice(["Book a place", "Register for an event", "Reserve your place"]))}</h3><form action="{action}" method="post">'
                f'<label>Event <select name="event">{evs}</select></label> <label>Name <input type="text" name="name"></label> '
                '<label>Email <input type="email" name="email"></label> <label>Organisation <input type="text" name="org"></label> '
                '<label><input type="checkbox" name="access" value="1"> I have access needs</label> <input type="submit" value="Register"></form>'
            )
        elif kind == "valuation":  # POST, shaped like the rental search: postcode, bedrooms, property type
            action, method = rng.choice(["/landlords/valuation", "/valuation/request"]), "post"
            beds = "".join(f"<option>{i}</option>" for i in range(1, 6))
            h = (
                f'<form action="{action}" method="post"><label>Postcode <input type="text" name="postcode"></label> '
                f'<label>Bedrooms <select name="beds">{beds}</select></label> <label>{E(label)} <select name="type">{cats}</select></label> '
                '<label>Email <input type="email" name="email"></label> <input type="submit" value="Get my free valuation"></form>'
            )
        elif kind == "fundcheck":  # GET: organisation type, income, where: "you may be eligible"
            action, method = rng.choice(["/eligibility/check", "/am-i-eligible"]), "get"
            h = (
                f'<form action="{action}" method="get"><label>Your organisation <select name="orgtype"><option>Registered charity</option>'
                "<option>Community group</option><option>Social enterprise</option><option>School or PTA</option></select></label> "
                '<label>Annual income <select name="income"><option>Under 10,000 pounds</option><option>10,000 to 100,000 pounds</option>'
                f'<option>Over 100,000 pounds</option></select></label> <label>{E(label)} <select name="theme">{cats}</select></label> '
                '<input type="submit" value="Check eligibility"></form>'
            )
        elif kind == "safetyreport":  # POST, shaped like the recall search: product, brand, type
            action, method = rng.choice(["/report/submit", "/unsafe-product/report"]), "post"
            h = (
                f'<form action="{action}" method="post"><label>Product <input type="text" name="product"></label> '
                f'<label>Brand <input type="text" name="brand"></label> <label>{E(label)} <select name="type">{cats}</select></label> '
                '<label>What happened? <textarea name="what"></textarea></label> <label>Email <input type="email" name="email"></label> '
                '<input type="submit" value="Send report"></form>'
            )
        else:
            return self._fresh6_form(site, kind, rng)
        site.actions[action] = Action(kind, "none")
        return h, (action, method, kind, "none")

    # ------------------------------------------------------------------ heldout16/17
    def _plan_traits6(self, topic: str, hosts: list[str], placements: list[str], cgi_index: int) -> None:
        """heldout16/17: which shapes each topic site has. On the scored topic's five sites: the home
        page's record search in a <dialog> at the end of the page (heldout16) or in every page's
        footer (heldout17), in a modern markup; the depth-1 search page linked from the footer only,
        a Drupal Views form; at depth 2 a long listing with the form at its bottom, and a search page
        with a form shaped like the search (supplier registration, arrangement request) before it
        and a login after it; at depth 3 a form posting to an application sub-host, in the modern
        markup. The robots.txt-disallowed action is on the depth-1 or a depth-2 site, as before.
        Elsewhere at random (heldout13-15's shapes and these)."""
        trng = random.Random(f"{self.seed}-traits6-{topic}")
        idx = list(range(len(hosts)))
        home = placements.index("home")
        traits: list[dict] = [
            {
                "style": trng.choice([0, 1, 2, 3, 4, 5, 6, 12, 15, 17] if i == home else [0, 1, 2, 3, 5, 7, 12, 14, 15, 16, 17, 18]),
                "newsy": trng.random() < 0.15,
                "pref": trng.random() < 0.3,
                "newsfirst": trng.random() < 0.15,
                "footlink": placements[i] == "d1" and trng.random() < 0.4,
                "beside2": placements[i] != "home" and trng.random() < 0.15,
                "beside6": placements[i] != "home" and trng.random() < 0.2,
                "bottom": placements[i] in ("d1", "d2") and trng.random() < 0.25,
                "hosted": trng.random() < 0.3,
                "tabs3": i == home and trng.random() < 0.3,
            }
            for i in idx
        ]
        for tr in traits:
            if tr["beside2"] and tr["beside6"]:
                tr["beside2"] = False
        if topic == self.topic:
            for tr in traits:
                tr.update(newsfirst=False, beside2=False, beside6=False, bottom=False, newsy=False, tabs3=False, footlink=False)
                tr.update(hosted=False)
            d1 = placements.index("d1")
            d2s = [i for i in idx if placements[i] == "d2"]
            d3 = placements.index("d3")
            bottom = next((i for i in d2s if i != cgi_index), d2s[0])
            beside = next(i for i in d2s if i != bottom)
            where = "dialog" if self.name == "heldout16" else "footsearch"
            traits[home].update({where: True, "style": 17, "compact": False})
            traits[d1].update(footlink=True, style=18, method="get")
            traits[bottom].update(bottom=True, style=17, method=trng.choice(["get", "post"]))
            traits[beside].update(beside6=True, style=trng.choice([1, 2, 3, 5, 12]))
            traits[d3].update(subhost=True, style=18, method="post", hosted=True)
            traits[trng.choice(idx)]["pref"] = True
        for host, tr in zip(hosts, traits, strict=True):
            self.traits[host] = tr

    def _fresh6_search_form(self, topic: str, action: str, method: str, style: int, rng: random.Random, compact: bool) -> tuple[str, list]:
        """Search forms of heldout16/17: 17 = a modern markup (a <search> element, a heading named by
        aria-labelledby, floating labels after their inputs, names like filters[keywords], a
        combobox with a datalist, an icon-only button); 18 = a Drupal Views exposed form
        (search_api_fulltext, selects whose "- Any -" sends All, form_build_id, form_id, "Apply")."""
        t = TOPICS[topic]
        labels = t.get("labels", {"category": "Category", "format": "Format", "price": "Price range"})
        fields: list = []
        uid = rng.randrange(100, 999)
        if style == 17:
            name, label = rng.choice(t["text_fields"][:3])
            wrap = rng.choice(["filters[{}]", "f[{}]", "query.{}"])
            fname = wrap.format(name)
            fields.append((fname, "text"))
            heading = rng.choice(["Find what you need", "What are you looking for?", "Look it up", "Start here"])
            dl = "".join(f'<option value="{E(c)}"></option>' for c in t["creators"][:6])
            parts = [
                f'<div class="float-field"><input id="in-{uid}" type="text" name="{E(fname)}" placeholder=" " role="combobox" '
                f'aria-autocomplete="list" aria-expanded="false" list="dl-{uid}" autocomplete="off"><label for="in-{uid}">{E(label)}</label>'
                f'<datalist id="dl-{uid}">{dl}</datalist></div>'
            ]
            if not compact:
                for role, key in (("category", "category"), ("format", "format")):
                    nm = wrap.format(rng.choice([key, key[:3], "type" if role == "format" else "group"]))
                    if any(nm == f[0] for f in fields):
                        nm = wrap.format(key + "2")
                    fields.append((nm, role))
                    src = t["categories"] if role == "category" else t["formats"]
                    opts = '<option value="">All</option>' + "".join(f'<option value="{slug(o)}">{E(o)}</option>' for o in src)
                    parts.append(
                        f'<div class="field"><span id="lb-{uid}-{role}" class="field-label">{E(labels[role])}</span>'
                        f'<select name="{E(nm)}" aria-labelledby="lb-{uid}-{role}">{opts}</select></div>'
                    )
            h = (
                f'<search class="c-search" aria-labelledby="hd-{uid}"><h3 id="hd-{uid}" class="c-search__title">{E(heading)}</h3>'
                f'<form action="{action}" method="{method}" class="c-search__form" data-component="SearchForm">{"".join(parts)}'
                f'<button type="submit" class="c-btn c-btn--icon" aria-label="{E(rng.choice(["Submit", "Go", "Find"]))}">'
                '<svg aria-hidden="true" focusable="false" viewBox="0 0 24 24"><path d="M10 2a8 8 0 1 0 4.9 14.3l5.4 5.4 1.4-1.4-5.4-5.4A8 8 0 0 0 10 2z"></path></svg>'
                "</button></form></search>"
            )
            return h, fields
        view = rng.choice(["notices", "catalogue", "listing", "items"])
        cat = rng.choice(["field_category_target_id", "field_type_target_id", "category"])
        fmt = rng.choice(["field_format_value", "field_procedure_value", "format"])
        band = rng.choice(["field_band_value", "field_level_value"])
        fields += [("search_api_fulltext", "text"), (cat, "category"), (fmt, "format"), (band, "price"), ("items_per_page", "other")]

        def sel(name: str, label: str, src: list) -> str:
            did = "edit-" + name.replace("_", "-")
            opts = '<option value="All" selected="selected">- Any -</option>' + "".join(
                f'<option value="{slug(o)}">{E(o)}</option>' for o in src
            )
            return (
                f'<div class="js-form-item form-item js-form-type-select form-type-select js-form-item-{did[5:]} form-item-{did[5:]}">'
                f'<label for="{did}">{E(label)}</label><select data-drupal-selector="{did}" id="{did}" name="{name}" class="form-select">{opts}</select></div>'
            )

        build = hashlib.sha256(f"{action}{uid}".encode()).hexdigest()[:32]
        h = (
            f'<form class="views-exposed-form" data-drupal-selector="views-exposed-form-{view}-page-1" action="{action}" method="{method}" '
            f'id="views-exposed-form-{view}-page-1" accept-charset="UTF-8"><div class="form--inline clearfix">'
            '<div class="js-form-item form-item js-form-type-textfield form-type-textfield js-form-item-search-api-fulltext form-item-search-api-fulltext">'
            f'<label for="edit-search-api-fulltext">{E(rng.choice(["Keywords", "Search", "Contains"]))}</label>'
            '<input data-drupal-selector="edit-search-api-fulltext" type="text" id="edit-search-api-fulltext" name="search_api_fulltext" '
            'value="" size="30" maxlength="128" class="form-text"></div>'
            + sel(cat, labels["category"], t["categories"])
            + sel(fmt, labels["format"], t["formats"])
            + sel(band, labels["price"], t["prices"])
            + '<div class="js-form-item form-item js-form-type-select form-type-select"><label for="edit-items-per-page">Items per page</label>'
            '<select data-drupal-selector="edit-items-per-page" id="edit-items-per-page" name="items_per_page" class="form-select">'
            '<option value="10" selected="selected">10</option><option value="25">25</option><option value="50">50</option></select></div>'
            f'<input autocomplete="off" type="hidden" name="form_build_id" value="form-{build}">'
            f'<input type="hidden" name="form_id" value="views_exposed_form">'
            f'<div data-drupal-selector="edit-actions" class="form-actions js-form-wrapper form-wrapper" id="edit-actions">'
            f'<input data-drupal-selector="edit-submit-{view}" type="submit" id="edit-submit-{view}" value="{E(rng.choice(["Apply", "Filter", "Search"]))}" '
            'class="button js-form-submit form-submit"></div></div></form>'
        )
        return h, fields

    def _fresh6_form(self, site: Site, kind: str, rng: random.Random) -> tuple[str, tuple]:
        """Forms of heldout16/17 that are not searches of records: "Was this page helpful?" (GET,
        radio buttons), supplier registration (POST, shaped like the tender search), arrangement
        requests (POST, shaped like the score search)."""
        t = TOPICS.get(site.topic, {})
        cats = "".join(f'<option value="{slug(c)}">{E(c)}</option>' for c in t.get("categories", ["General"])[:8])
        labels = t.get("labels", {})
        if kind == "feedback":
            action, method = rng.choice(["/feedback", "/page-feedback", "/helpful"]), "get"
            h = (
                f'<form action="{action}" method="get" class="page-feedback"><fieldset><legend>Was this page helpful?</legend>'
                '<label><input type="radio" name="helpful" value="yes"> Yes</label> <label><input type="radio" name="helpful" value="no"> No</label>'
                '</fieldset><label>How could we improve it? <textarea name="comment" rows="2"></textarea></label>'
                '<input type="hidden" name="source" value="footer"><button type="submit">Send feedback</button></form>'
            )
        elif kind == "supplier":
            action, method = rng.choice(["/suppliers/register", "/supplier-registration/submit"]), "post"
            h = (
                f"<h3>{E(rng.choice(['New supplier? Register to bid', 'Not registered yet?', 'Find work: register as a supplier']))}</h3>"
                f'<form action="{action}" method="post"><label>Company name <input type="text" name="company"></label> '
                f'<label>What do you supply? <select name="category">{cats}</select></label> '
                '<label>Region <select name="region"><option>North East</option><option>Yorkshire and the Humber</option>'
                "<option>North West</option><option>Anywhere in the UK</option></select></label> "
                '<label>Keywords describing your work <input type="text" name="keywords"></label> '
                '<label>Email <input type="email" name="email"></label> <input type="submit" value="Register"></form>'
            )
        elif kind == "arrangement":
            action, method = rng.choice(["/arrangements/request", "/arranging-service/order"]), "post"
            lv = "".join(f'<option value="{slug(c)}">{E(c)}</option>' for c in t.get("prices", [])[:4])
            h = (
                f"<h3>{E(rng.choice(['Cannot find your piece?', 'Need it arranged?', 'Request an arrangement']))}</h3>"
                f'<form action="{action}" method="post"><label>Title <input type="text" name="title"></label> '
                f'<label>Composer <input type="text" name="composer"></label> <label>{E(labels.get("category", "Instrument"))} '
                f'<select name="instrument">{cats}</select></label> <label>{E(labels.get("price", "Level"))} <select name="level">{lv}</select></label> '
                '<label>Email <input type="email" name="email"></label> <input type="submit" value="Request arrangement"></form>'
            )
        else:
            return self._fresh7_form(site, kind, rng)
        site.actions[action] = Action(kind, "none")
        return h, (action, method, kind, "none")

    # ------------------------------------------------------------------ heldout18-20
    def _plan_traits7(self, topic: str, hosts: list[str], placements: list[str], cgi_index: int) -> None:
        """heldout18-20: which shapes each topic site has. On the scored topic's five sites: on the home
        page a JavaScript search app whose HTML form is only in its <noscript> fallback; at depth 1 a
        page linked from the menu by "Browse ..." only, with a GET form of many selects; at depth 2 a
        form whose action is on a vendor's platform (another registered domain), on the depth-2 site
        whose action robots.txt does not disallow, and a page linked from its hub by "Advanced" only,
        with a form shaped like the search after it; at depth 3 a terms-of-use page with an accept
        form in front of the search page, on a site whose site search is hosted. Elsewhere at random
        (heldout13-17's shapes and these)."""
        trng = random.Random(f"{self.seed}-traits7-{topic}")
        idx = list(range(len(hosts)))
        home = placements.index("home")
        traits: list[dict] = [
            {
                "style": trng.choice([0, 1, 2, 3, 4, 5, 6, 12, 15, 17, 20] if i == home else [0, 1, 2, 3, 5, 7, 12, 14, 15, 17, 18, 19]),
                "newsy": trng.random() < 0.15,
                "pref": trng.random() < 0.3,
                "newsfirst": trng.random() < 0.1,
                "footlink": placements[i] == "d1" and trng.random() < 0.2,
                "beside6": placements[i] != "home" and trng.random() < 0.15,
                "bottom": placements[i] in ("d1", "d2") and trng.random() < 0.15,
                "hosted": trng.random() < 0.3,
                "tabs3": i == home and trng.random() < 0.2,
                "noscript": i == home and trng.random() < 0.35,
                "browse": placements[i] == "d1" and trng.random() < 0.35,
                "vendor": placements[i] == "d2" and i != cgi_index and trng.random() < 0.3,
                "advlink": placements[i] == "d2" and trng.random() < 0.3,
                "beside7": placements[i] != "home" and trng.random() < 0.15,
                "disclaimer": placements[i] == "d3" and trng.random() < 0.35,
            }
            for i in idx
        ]
        for tr in traits:
            if tr["noscript"]:
                tr["tabs3"] = False
            if tr["browse"]:
                tr.update(footlink=False, bottom=False)
            if tr["beside6"] and tr["beside7"]:
                tr["beside6"] = False
        if topic == self.topic:
            for tr in traits:
                tr.update(newsfirst=False, beside6=False, bottom=False, newsy=False, tabs3=False, footlink=False, hosted=False)
                tr.update(noscript=False, browse=False, vendor=False, advlink=False, beside7=False, disclaimer=False)
            d1 = placements.index("d1")
            d2s = [i for i in idx if placements[i] == "d2"]
            d3 = placements.index("d3")
            vendor = next((i for i in d2s if i != cgi_index), d2s[0])
            adv = next(i for i in d2s if i != vendor)
            traits[home].update(noscript=True, style=20, compact=False)
            shapes14 = SHAPES14.get(self.name) or SHAPES15.get(self.name) or SHAPES16.get(self.name) or SHAPES17.get(self.name)
            if shapes14:  # heldout37-39 (heldout40-42: SHAPES15): the earlier batches' shapes in a new combination on each web
                s1, s2, s3 = shapes14
                traits[d1].update({s1: True, "style": trng.choice([0, 1, 2, 3, 5, 12, 14, 15, 17]), "method": trng.choice(["get", "post"])})
                traits[vendor].update({s2: True, "method": trng.choice(["get", "post"])})
                if s2 == "sitemap":
                    traits[vendor]["style"] = trng.choice([0, 1, 2, 3, 5, 12, 14, 15, 17])
                for i in (home, d1, vendor):
                    traits[i]["needs_term"] = True
                traits[d3].update({s3: True, "style": trng.choice([17, 18, 19]), "hosted": True})
                for i in (d1, vendor):
                    if traits[i].get("csrf"):  # heldout40-42: a CSRF token guards POST forms
                        traits[i]["method"] = "post"
                for i in (d1, vendor, d3):
                    if traits[i].get("pathquery"):  # heldout43-45: a one-box GET form
                        traits[i]["method"] = "get"
            elif self.fresh13:  # heldout34-36: the search page is on a sub-host of the site, in a subfolder
                traits[d1].update(subpage=True, style=trng.choice([0, 1, 2, 3, 5, 12, 14, 15, 17]), method=trng.choice(["get", "post"]))
            elif self.fresh12:  # heldout31-33: the search page is a widget in an <iframe> of the home page
                traits[d1].update(iframe=True, style=trng.choice([0, 1, 2, 3, 5, 12, 14, 15, 17]), method=trng.choice(["get", "post"]))
            elif self.fresh10:  # heldout26/27: an image-map-only menu entry to an ordinary search page
                traits[d1].update(maplink=True, style=trng.choice([0, 1, 2, 3, 5, 7, 12, 14, 15, 17]), method=trng.choice(["get", "post"]))
            elif self.fresh9:  # heldout23-25: an icon-only menu link to an ordinary search page
                traits[d1].update(iconlink=True, style=trng.choice([0, 1, 2, 3, 5, 7, 12, 14, 15, 17]), method=trng.choice(["get", "post"]))
            else:
                traits[d1].update(browse=True, style=19, method="get")
            if shapes14:
                pass
            elif self.fresh13:  # heldout34-36: the search page is linked from the site map only
                traits[vendor].update(sitemap=True, style=trng.choice([0, 1, 2, 3, 5, 12, 14, 15, 17]), method=trng.choice(["get", "post"]))
                for i in (home, d1, vendor):
                    traits[i]["needs_term"] = True
            elif self.fresh12:  # heldout31-33: a search with no submit control (Enter, or a javascript: link)
                traits[vendor].update(nosubmit=True, method=trng.choice(["get", "post"]))
                for i in (home, d1, vendor):
                    traits[i]["needs_term"] = True
            elif self.fresh10:  # heldout26/27: a search submitted only by an <input type="image">, radios and check boxes
                traits[vendor].update(imgsubmit=True, method=trng.choice(["get", "post"]))
                for i in (home, d1, vendor):
                    traits[i]["needs_term"] = True
            elif self.fresh9:  # heldout23-25: the fields and button outside an empty <form>, tied by form="ID"
                traits[vendor].update(formattr=True, method=trng.choice(["get", "post"]))
                for i in (home, d1, vendor):
                    traits[i]["needs_term"] = True
            elif self.fresh8:  # heldout21/22: the search sent by a <button formaction> of a "save this search" form
                traits[vendor].update(formaction=True, style=trng.choice([0, 1, 2, 3, 17]), method="get")
            else:
                traits[vendor].update(vendor=True, style=trng.choice([0, 1, 2, 3, 17]), method=trng.choice(["get", "post"]))
            traits[adv].update(advlink=True, beside7=True, style=trng.choice([1, 2, 5, 12]))
            if shapes14:
                pass
            elif self.fresh13:  # heldout34-36: the home page is a language chooser; the search two links below /en/
                traits[d3].update(chooser=True, style=trng.choice([17, 18, 19]), hosted=True)
            else:
                traits[d3].update(disclaimer=True, style=trng.choice([17, 18, 19]), hosted=True)
            traits[trng.choice(idx)]["pref"] = True
        if self.fresh8 and topic != self.topic:
            # heldout21/22: the other topics' sites sometimes have the <button formaction> search too
            frng = random.Random(f"{self.seed}-traits8-{topic}")
            plain = ("vendor", "browse", "noaction", "relative", "listing", "bottom", "subhost", "app_action", "disclaimer")
            for i, tr in enumerate(traits):
                if placements[i] in ("d1", "d2") and i != cgi_index and not any(tr.get(k) for k in plain) and frng.random() < 0.3:
                    tr.update(formaction=True, method="get")
        if self.fresh10 and topic != self.topic:
            # heldout26/27: the other topics' sites sometimes have the image-submit search, and some
            # of their searches refuse an empty query
            nrng = random.Random(f"{self.seed}-traits10-{topic}")
            plain = ("vendor", "browse", "noaction", "relative", "listing", "bottom", "subhost", "app_action", "disclaimer", "formaction")
            for i, tr in enumerate(traits):
                if placements[i] in ("d1", "d2") and i != cgi_index and not any(tr.get(k) for k in plain) and nrng.random() < 0.25:
                    tr.update(imgsubmit=True)
                if nrng.random() < 0.3:
                    tr["needs_term"] = True
        elif self.fresh9 and topic != self.topic:
            # heldout23-25: the other topics' sites sometimes have the form="ID" search, and some
            # of their searches refuse an empty query
            nrng = random.Random(f"{self.seed}-traits9-{topic}")
            plain = ("vendor", "browse", "noaction", "relative", "listing", "bottom", "subhost", "app_action", "disclaimer", "formaction")
            for i, tr in enumerate(traits):
                if placements[i] in ("d1", "d2") and i != cgi_index and not any(tr.get(k) for k in plain) and nrng.random() < 0.25:
                    tr.update(formattr=True)
                if nrng.random() < 0.3:
                    tr["needs_term"] = True
        if self.fresh12 and topic != self.topic:
            # heldout31-33: the other topics' sites sometimes have the iframe widget or the search
            # without a submit control too
            zrng = random.Random(f"{self.seed}-traits12-{topic}")
            plain = (
                "vendor", "noaction", "relative", "listing", "subhost", "app_action", "disclaimer",
                "formaction", "formattr", "box", "footlink", "iconlink", "maplink",
            )  # fmt: skip
            for i, tr in enumerate(traits):
                if placements[i] in ("d1", "d2") and i != cgi_index and not any(tr.get(k) for k in plain):
                    r = zrng.random()
                    if r < 0.25 and placements[i] == "d1" and not tr.get("browse") and not tr.get("bottom"):
                        tr.update(iframe=True, beside=False, beside2=False, beside6=False, beside7=False)
                    elif r < 0.7:
                        tr.update(nosubmit=True, imgsubmit=False)
        if self.fresh13:
            # heldout34-36: the other topics' sites sometimes have the sub-host search page, the search
            # page linked from the site map only, or the language chooser; a site map in the footer of
            # some sites of every topic (listing the search page too, where that keeps its depth)
            xrng = random.Random(f"{self.seed}-traits13-{topic}")
            plain = (
                "vendor", "browse", "noaction", "relative", "listing", "bottom", "subhost", "app_action", "disclaimer",
                "formaction", "formattr", "box", "footlink", "iconlink", "maplink", "iframe", "advlink",
            )  # fmt: skip
            for i, tr in enumerate(traits):
                r = xrng.random()
                if topic == self.topic or any(tr.get(k) for k in plain) or i == cgi_index:
                    pass
                elif placements[i] == "d1" and r < 0.3:
                    tr.update(
                        subpage=True,
                        beside=False,
                        beside2=False,
                        beside6=False,
                        beside7=False,
                        formattr=False,
                        imgsubmit=False,
                        nosubmit=False,
                    )
                elif placements[i] == "d2" and r < 0.3:
                    tr.update(sitemap=True)
                elif placements[i] == "d3" and r < 0.35:
                    tr.update(chooser=True)
            for tr in traits:
                if not tr.get("sitemap") and not tr.get("chooser") and xrng.random() < 0.35:
                    tr["sitemap_footer"] = True
        if self.fresh15 and topic != self.topic:
            # heldout40-42: the other topics' sites sometimes have the basic-and-advanced search page,
            # the CSRF-guarded search, the "Searching..." refresh page, or the cookie-consent wall
            yrng = random.Random(f"{self.seed}-traits15-{topic}")
            plain = (
                "vendor", "browse", "noaction", "relative", "listing", "bottom", "subhost", "app_action", "disclaimer",
                "formaction", "formattr", "box", "footlink", "iconlink", "maplink", "iframe", "advlink", "subpage",
                "sitemap", "chooser",
            )  # fmt: skip
            for i, tr in enumerate(traits):
                r = yrng.random()
                if any(tr.get(k) for k in plain) or i == cgi_index or placements[i] == "home":
                    continue
                if placements[i] == "d3":
                    if r < 0.6:
                        tr["consent"] = True
                elif r < 0.3:
                    tr.update(csrf=True, method="post", nosubmit=False, imgsubmit=False)
                elif r < 0.6:
                    tr.update(refresh=True, nosubmit=False, imgsubmit=False)
                elif r < 0.9:
                    tr.update(dualform=True, nosubmit=False, imgsubmit=False)
        if self.fresh16 and topic != self.topic:
            # heldout43-45: the other topics' sites sometimes have the hamburger drawer, the search that
            # ignores short words, the redirect to the query in the path, or the required category select
            zrng = random.Random(f"{self.seed}-traits16-{topic}")
            busy = (
                "vendor", "browse", "noaction", "relative", "listing", "bottom", "subhost", "app_action", "disclaimer",
                "formaction", "formattr", "box", "footlink", "iconlink", "maplink", "iframe", "advlink", "subpage",
                "sitemap", "chooser", "csrf", "refresh", "dualform", "consent",
            )  # fmt: skip
            for i, tr in enumerate(traits):
                r = zrng.random()
                if i == cgi_index:
                    continue
                if r < 0.2:
                    tr["hamburger"] = True
                elif r < 0.35:
                    tr["shortzero"] = True
                elif placements[i] == "home" or any(tr.get(k) for k in busy):
                    continue
                elif r < 0.6:
                    tr.update(pathquery=True, method="get", nosubmit=False, imgsubmit=False)
                elif r < 0.85:
                    tr.update(reqselect=True, nosubmit=False, imgsubmit=False)
        if self.fresh17 and topic != self.topic:
            # heldout46-48: the other topics' sites sometimes have the shadow-root form, the <base href>
            # relative action, title-only fields, bracketed names or the Welsh form
            vrng = random.Random(f"{self.seed}-traits17-{topic}")
            busy17 = (
                "vendor", "browse", "noaction", "relative", "listing", "bottom", "subhost", "app_action", "disclaimer",
                "formaction", "formattr", "box", "footlink", "iconlink", "maplink", "iframe", "advlink", "subpage",
                "sitemap", "chooser", "imgsubmit", "nosubmit",
            )  # fmt: skip
            for i, tr in enumerate(traits):
                r = vrng.random()
                if i == cgi_index or placements[i] == "home" or any(tr.get(k) for k in busy17):
                    continue
                if r < 0.75:  # in place of heldout40-45's form shapes on that site
                    tr.update(csrf=False, refresh=False, dualform=False, pathquery=False, reqselect=False)
                    tr[SHAPES17_ALL[int(r / 0.15)]] = True
        for host, tr in zip(hosts, traits, strict=True):
            self.traits[host] = tr

    def _nosubmit_search_form(self, topic: str, action: str, method: str, rng: random.Random) -> tuple[str, list]:
        """heldout31-33: a search with no submit control, as older sites write it: one text box (a form
        with a single text field is submitted by pressing Enter), two selects and a hidden field in a
        table, and a "Search" link whose href is javascript: calling the form's submit(). Returns the
        HTML and the search's fields."""
        t = TOPICS[topic]
        labels = t.get("labels", {"category": "Category", "format": "Format", "price": "Price range"})
        fid = rng.choice(["quicksearch", "frmFind", "searchform", "sf1"])
        name, label = rng.choice(t["text_fields"][:4])
        cat = rng.choice(["cat", "category", "type"])
        fmt = rng.choice(["fmt", "status", "kind"])
        hidden = rng.choice([("mode", "simple"), ("src", "box"), ("lang", "en"), ("pg", "1")])
        link = rng.choice(["Search", "Find", "Go", "Search now"])

        def options(src: list) -> str:
            return '<option value="">All</option>' + "".join(f'<option value="{slug(o)}">{E(o)}</option>' for o in src)

        h = (
            f'<form id="{fid}" name="{fid}" action="{action}" method="{method}">'
            f'<input type="hidden" name="{hidden[0]}" value="{hidden[1]}"><table class="searchbar"><tr>'
            f'<td><label for="{fid}-q">{E(label)}</label></td><td><input type="text" id="{fid}-q" name="{name}" size="28" maxlength="120"></td>'
            f'<td><select name="{cat}" title="{E(labels["category"])}">{options(t["categories"])}</select></td>'
            f'<td><select name="{fmt}" title="{E(labels["format"])}">{options(t["formats"])}</select></td>'
            f'<td><a href="javascript:document.forms[\'{fid}\'].submit();" class="btn-search">{E(link)} &raquo;</a></td>'
            "</tr></table></form>"
        )
        return h, [(name, "text"), (cat, "category"), (fmt, "format"), (hidden[0], "other")]

    def _formattr_search_form(self, topic: str, action: str, method: str, rng: random.Random) -> tuple[str, list]:
        """heldout23-25: a search whose <form> element holds only a hidden field and sits before a
        layout table; the text boxes, selects and the submit button are in the table, outside the
        form, each tied to it by form="ID" (HTML5 form-associated elements), as pages do whose
        table layout cannot sit inside a form. Returns the HTML and the search's fields."""
        t = TOPICS[topic]
        labels = t.get("labels", {"category": "Category", "format": "Format", "price": "Price range"})
        fid = rng.choice(["searchForm", "frmSearch", "rs-form", "qform", "search_main"])
        names = rng.sample(t["text_fields"][:5], 2)
        cat = rng.choice(["category", "type", "dept", "cat"])
        fmt = rng.choice(["format", "kind", "status", "fmt"])
        hidden = rng.choice([("sort", "relevance"), ("view", "list"), ("rpp", "20"), ("src", "adv")])

        def options(src: list) -> str:
            return '<option value="">All</option>' + "".join(f'<option value="{slug(o)}">{E(o)}</option>' for o in src)

        rows = "".join(
            f'<tr><th scope="row"><label for="{fid}-{n}">{E(lab)}</label></th>'
            f'<td><input type="text" id="{fid}-{n}" name="{n}" form="{fid}" size="30"></td></tr>'
            for n, lab in names
        )
        h = (
            f'<form id="{fid}" action="{action}" method="{method}"><input type="hidden" name="{hidden[0]}" value="{hidden[1]}"></form>'
            f'<table class="search-table" summary="{E(rng.choice(["Search criteria", "Search options", "Criteria"]))}">{rows}'
            f'<tr><th scope="row"><label for="{fid}-c">{E(labels["category"])}</label></th>'
            f'<td><select id="{fid}-c" name="{cat}" form="{fid}">{options(t["categories"])}</select></td></tr>'
            f'<tr><th scope="row"><label for="{fid}-f">{E(labels["format"])}</label></th>'
            f'<td><select id="{fid}-f" name="{fmt}" form="{fid}">{options(t["formats"])}</select></td></tr>'
            f'<tr><td></td><td><button type="submit" form="{fid}">{E(rng.choice(["Search", "Find", "Go", "Show results"]))}</button> '
            f'<button type="reset" form="{fid}">Clear</button></td></tr></table>'
        )
        return h, [(names[0][0], "text"), (names[1][0], "text"), (cat, "category"), (fmt, "format"), (hidden[0], "other")]

    def _imgsubmit_search_form(self, topic: str, action: str, method: str, rng: random.Random) -> tuple[str, list]:
        """heldout26/27: a search whose only submit control is an <input type="image"> (a browser
        sends NAME.x and NAME.y with it), its query box an <input type="search"> with a <datalist>
        of suggestions, its category a group of radio buttons with "Any" checked, its second filter
        a row of check boxes (any ticked matches), and a "match" radio group. Returns the HTML and
        the search's fields."""
        t = TOPICS[topic]
        labels = t.get("labels", {"category": "Category", "format": "Format", "price": "Price range"})
        name, label = rng.choice(t["text_fields"][:4])
        cat = rng.choice(["cat", "category", "c", "filter_cat"])
        fmt = rng.choice(["fmt", "type", "f", "filter_type"])
        match = rng.choice(["match", "mode", "m"])
        button = rng.choice(["go", "btnSearch", "submit", "search"])
        modes = (
            ["Starts with", "Contains", "Ends with", "Exact word"]
            if topic == "dictionaries"
            else ["All the words", "Any of the words", "Exact phrase"]
        )
        suggest = "".join(f'<option value="{E(w)}">' for w in rng.sample(t["title_a"], 5))
        cats = f'<label><input type="radio" name="{cat}" value="" checked> Any</label> ' + " ".join(
            f'<label><input type="radio" name="{cat}" value="{slug(c)}"> {E(c)}</label>' for c in t["categories"][:6]
        )
        fmts = " ".join(f'<label><input type="checkbox" name="{fmt}" value="{slug(o)}"> {E(o)}</label>' for o in t["formats"])
        mode_html = " ".join(
            f'<label><input type="radio" name="{match}" value="{slug(m)}"{" checked" if k == 0 else ""}> {E(m)}</label>'
            for k, m in enumerate(modes)
        )
        h = (
            f'<form name="finder" class="finder" action="{action}" method="{method}">'
            f'<p><label for="finder-{name}">{E(label)}</label> <input type="search" id="finder-{name}" name="{name}" list="{name}-suggest" '
            f'placeholder="{E(rng.choice(t["placeholders"]))}" autocomplete="off"><datalist id="{name}-suggest">{suggest}</datalist></p>'
            f'<p class="modes">{mode_html}</p>'
            f'<fieldset class="radios"><legend>{E(labels["category"])}</legend>{cats}</fieldset>'
            f'<fieldset class="ticks"><legend>{E(labels["format"])}</legend>{fmts}</fieldset>'
            f'<p class="go"><input type="image" name="{button}" src="/img/{rng.choice(["btn-search", "go-button", "search_btn"])}.gif" '
            f'alt="{E(rng.choice(["Search", "Find", "Look up", "Go"]))}" width="72" height="24"></p></form>'
        )
        return h, [(name, "text"), (cat, "category"), (fmt, "facet_format"), (match, "other")]

    def _formaction_search_form(self, topic: str, action: str, save_action: str, rng: random.Random) -> tuple[str, list, list]:
        """heldout21/22: a search form whose own action is "save this search" (POST, with a CSRF token
        and an email box), as sites with accounts write it; its first submit button, the default one
        (the one Enter presses), sends the same fields by GET to the search's results page through
        `formaction` and `formmethod`. Returns the HTML, the search's fields and the save form's."""
        t = TOPICS[topic]
        labels = t.get("labels", {"category": "Category", "format": "Format", "price": "Price range"})
        uid = rng.randrange(100, 999)
        name, label = rng.choice(t["text_fields"][:4])
        cat = rng.choice(["category", "type", "cat"])
        fmt = rng.choice(["format", "kind", "part"])
        token = "".join(rng.choice("abcdef0123456789") for _ in range(32))
        csrf = rng.choice(["csrf_token", "_token", "authenticity_token", "csrfmiddlewaretoken"])

        def options(src: list) -> str:
            return '<option value="">Any</option>' + "".join(f'<option value="{slug(o)}">{E(o)}</option>' for o in src)

        h = (
            f'<form action="{save_action}" method="post" class="search-save" id="sf-{uid}">'
            f'<input type="hidden" name="{csrf}" value="{token}">'
            f'<p><label for="sf-{uid}-q">{E(label)}</label> <input type="text" id="sf-{uid}-q" name="{name}" size="32" '
            f'placeholder="{E(rng.choice(t["placeholders"]))}"></p>'
            f'<p><label for="sf-{uid}-c">{E(labels["category"])}</label> <select id="sf-{uid}-c" name="{cat}">{options(t["categories"])}</select> '
            f'<label for="sf-{uid}-f">{E(labels["format"])}</label> <select id="sf-{uid}-f" name="{fmt}">{options(t["formats"])}</select></p>'
            f'<p class="buttons"><button type="submit" formaction="{action}" formmethod="get" class="btn-primary">'
            f"{E(rng.choice(['Search', 'Show results', 'Find']))}</button> "
            f'<label for="sf-{uid}-e">Email me new matches</label> <input type="email" id="sf-{uid}-e" name="email"> '
            f'<button type="submit" name="save" value="1" class="btn-secondary">{E(rng.choice(["Save this search", "Save search", "Create alert"]))}</button></p>'
            "</form>"
        )
        search_fields = [(name, "text"), (cat, "category"), (fmt, "format")]
        return h, search_fields, search_fields + [(csrf, "other"), ("email", "other"), ("save", "other")]

    def _fresh7_search_form(self, topic: str, action: str, method: str, style: int, rng: random.Random, compact: bool) -> tuple[str, list]:
        """Search forms of heldout18-20: 19 = a GET form of many selects, as council, register and
        saleroom sites write them (one text box; the topic's three lists; a date range of day, month
        and year selects; sort order; results per page; "Search" and "Clear"); 20 = the plain form a
        search app keeps for browsers without JavaScript (a label, a text box, one select, a hidden
        "nojs" flag, "Search")."""
        t = TOPICS[topic]
        labels = t.get("labels", {"category": "Category", "format": "Format", "price": "Price range"})
        uid = rng.randrange(100, 999)
        if style == 20:
            name, label = rng.choice(t["text_fields"][:4])
            cat = rng.choice(["category", "type", "filter", "c"])
            opts = '<option value="">Any</option>' + "".join(f'<option value="{slug(o)}">{E(o)}</option>' for o in t["categories"][:8])
            h = (
                f'<form action="{action}" method="{method}" class="nojs-search"><input type="hidden" name="nojs" value="1">'
                f'<label for="nj-{uid}">{E(label)}</label> <input type="text" id="nj-{uid}" name="{name}" size="30"> '
                f'<label for="nj-{uid}-c">{E(labels["category"])}</label> <select id="nj-{uid}-c" name="{cat}">{opts}</select> '
                f'<input type="submit" value="{E(rng.choice(["Search", "Find", "Go"]))}"></form>'
            )
            return h, [(name, "text"), (cat, "category"), ("nojs", "other")]
        name, label = rng.choice(t["text_fields"][:4])
        fields: list = [(name, "text")]
        rows = [
            f'<tr><th scope="row"><label for="ms-{name}">{E(label)}</label></th><td><input type="text" id="ms-{name}" name="{name}" size="40"></td></tr>'
        ]
        for role, key in (
            ("category", rng.choice(["category", "cat", "type"])),
            ("format", rng.choice(["kind", "fmt", "part"])),
            ("price", rng.choice(["band", "range", "value"])),
        ):
            src = {"category": t["categories"], "format": t["formats"], "price": t["prices"]}[role]
            fields.append((key, role))
            opts = f'<option value="">{E(rng.choice(["All", "Any", "-- All --"]))}</option>' + "".join(
                f'<option value="{slug(o)}">{E(o)}</option>' for o in src
            )
            rows.append(
                f'<tr><th scope="row"><label for="ms-{key}">{E(labels[role])}</label></th><td><select id="ms-{key}" name="{key}">{opts}</select></td></tr>'
            )
        months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

        def date(prefix: str, word: str) -> str:
            days = '<option value="">Day</option>' + "".join(f'<option value="{d:02d}">{d}</option>' for d in range(1, 32))
            mons = '<option value="">Month</option>' + "".join(f'<option value="{k:02d}">{m}</option>' for k, m in enumerate(months, 1))
            years = '<option value="">Year</option>' + "".join(f"<option>{y}</option>" for y in range(self.year, self.year - 12, -1))
            for part in ("day", "month", "year"):
                fields.append((f"{prefix}_{part}", "other"))
            return (
                f'<select name="{prefix}_day" aria-label="{word} day">{days}</select>'
                f'<select name="{prefix}_month" aria-label="{word} month">{mons}</select>'
                f'<select name="{prefix}_year" aria-label="{word} year">{years}</select>'
            )

        rows.append(
            f'<tr><th scope="row">{E(t.get("date_label", "Date from"))}</th><td>{date("from", "From")} and {date("to", "To")}</td></tr>'
        )
        fields += [("sort", "other"), ("per_page", "other")]
        rows.append(
            '<tr><th scope="row"><label for="ms-sort">Sort by</label></th><td><select id="ms-sort" name="sort">'
            '<option value="date_desc">Newest first</option><option value="date_asc">Oldest first</option>'
            '<option value="name">Name A-Z</option></select> <label for="ms-pp">Results per page</label> '
            '<select id="ms-pp" name="per_page"><option>10</option><option>25</option><option>50</option><option>100</option></select></td></tr>'
        )
        heading = rng.choice(
            ["Search criteria", "Filter the list", f"Browse {t['plural']}" if topic != self.topic else "Choose what to show"]
        )
        h = (
            f'<form action="{action}" method="get" id="browseForm" class="criteria"><table class="form-table"><caption>{E(heading)}</caption>'
            f'{"".join(rows)}</table><p><input type="submit" name="search" value="{E(rng.choice(["Search", "Show results", "Apply"]))}"> '
            '<input type="reset" value="Clear"></p></form>'
        )
        return h, fields

    def _form17(self, site: Site, topic: str, action: str, method: str, cats: list, traits: dict) -> tuple[str, list]:
        """heldout46-48: the search form written with titles only and opaque names ("titleonly"), with
        JSON-like bracketed names ("bracket"), or in Welsh on an English site ("welsh")."""
        t = TOPICS[topic]
        labels = t.get("labels", {})
        lab_cat, lab_fmt = labels.get("category", "Category"), labels.get("format", "Format")
        rng = random.Random(f"{self.seed}-{site.host}-form17")
        catopts = "".join(f"<option>{E(c)}</option>" for c in cats)
        fmtopts = "".join(f"<option>{E(c)}</option>" for c in t["formats"])
        if traits.get("titleonly"):
            tf = rng.sample(t["text_fields"][:3], 2)
            pre = rng.choice(["f", "fld", "p", "x"])
            h = (
                f'<form action="{action}" method="{method}" name="frm1"><table class="qbe"><tr>'
                f'<td><input type="text" name="{pre}1" size="30" title="{E(tf[0][1])}"></td>'
                f'<td><input type="text" name="{pre}2" size="20" title="{E(tf[1][1])}"></td></tr><tr>'
                f'<td><select name="{pre}3" title="{E(lab_cat)}"><option value="">*</option>{catopts}</select></td>'
                f'<td><select name="{pre}4" title="{E(lab_fmt)}"><option value="">*</option>{fmtopts}</select></td></tr></table>'
                f'<input type="hidden" name="db" value="{rng.choice(["main", "cat1", "rec"])}"> '
                f'<input type="submit" value="{E(rng.choice(["Go", ">>", "OK"]))}" title="Search"></form>'
            )
            return h, [(f"{pre}1", "text"), (f"{pre}2", "text"), (f"{pre}3", "category"), (f"{pre}4", "format"), ("db", "other")]
        if traits.get("bracket"):
            pre = rng.choice(["search", "query", "filter", "criteria"])
            ck, fk = rng.choice(["type", "category", "group"]), rng.choice(["status", "kind", "class"])
            nm = {"t": f"{pre}[terms]", "c": f"{pre}[filters][{ck}]", "f": f"{pre}[filters][{fk}]"}
            nid = {k: re.sub(r"[\[\]]+", "_", v).strip("_") for k, v in nm.items()}
            h = (
                f'<form action="{action}" method="{method}" class="search-form" data-format="json">'
                f'<label for="{nid["t"]}">{E(rng.choice(["Search for", "Keywords", "Words"]))}</label> '
                f'<input type="search" id="{nid["t"]}" name="{nm["t"]}" placeholder="{E(rng.choice(t["placeholders"]))}"> '
                f'<label for="{nid["c"]}">{E(lab_cat)}</label> <select id="{nid["c"]}" name="{nm["c"]}"><option value="">Any</option>{catopts}</select> '
                f'<label for="{nid["f"]}">{E(lab_fmt)}</label> <select id="{nid["f"]}" name="{nm["f"]}"><option value="">Any</option>{fmtopts}</select> '
                f'<input type="hidden" name="{pre}[page][size]" value="20"><input type="hidden" name="{pre}[sort][field]" value="relevance">'
                f'<button type="submit" name="{pre}[submit]" value="1">Search</button></form>'
            )
            fields = [(nm["t"], "text"), (nm["c"], "category"), (nm["f"], "format")]
            return h, fields + [(f"{pre}[page][size]", "other"), (f"{pre}[sort][field]", "other")]
        txt = rng.choice(["q", "term", "chwilio", "geiriau"])
        sel = rng.choice(["math", "categori", "cat"])
        h = (
            f'<div lang="cy" class="cy-only"><h2>{E(rng.choice(["Chwilio’r gronfa ddata", "Chwilio’r cofnodion", "Chwilio’r casgliad"]))}</h2>'
            "<p>Mae’r dudalen hon ar gael yn Gymraeg yn unig ar hyn o bryd.</p>"
            f'<form action="{action}" method="{method}" class="chwilio">'
            f'<label for="cy-{txt}">{E(rng.choice(["Geiriau allweddol", "Chwilio am", "Allweddair"]))}</label> '
            f'<input type="text" id="cy-{txt}" name="{txt}" placeholder="{E(rng.choice(["Teipiwch air neu ddau", "Beth ydych chi’n chwilio amdano?"]))}"> '
            f'<label for="cy-{sel}">{E(rng.choice(["Math", "Categori", "Dosbarth"]))}</label> '
            f'<select id="cy-{sel}" name="{sel}"><option value="">Unrhyw</option>{catopts}</select> '
            f'<input type="hidden" name="iaith" value="cy"><input type="submit" value="Chwilio"></form></div>'
        )
        return h, [(txt, "text"), (sel, "category"), ("iaith", "other")]

    def _noscript_search(self, site: Site, form_html: str, action: str, fields: list, rng: random.Random) -> str:
        """heldout18-20: the home page's search as a JavaScript app (an empty mount point, a script, its
        endpoint in a data attribute) whose HTML form is only in the <noscript> fallback; on heldout19/20
        also a schema.org SearchAction in JSON-LD, as sites write for search engines."""
        uid = rng.randrange(16**6)
        text = next(n for n, role in fields if role == "text")
        out = (
            f'<div id="search-root" class="js-search" data-endpoint="/api/v{rng.randrange(1, 4)}/query" data-theme="hero">'
            f'<p class="loading">{E(rng.choice(["Loading search", "Loading", "Starting search"]))}&hellip;</p></div>'
            f'<script src="/static/js/search.{uid:06x}.js" defer></script>'
            f'<noscript><div class="nojs-fallback"><p>{E(rng.choice(["Search without JavaScript:", "JavaScript is switched off. Use this form instead:", "Basic search"]))}</p>'
            f"{form_html}</div></noscript>"
        )
        if self.name != "heldout18":
            target = site.url(action) + f"?{text}={{search_term_string}}"
            out = (
                '<script type="application/ld+json">{"@context": "https://schema.org", "@type": "WebSite", '
                f'"url": "http://{site.host}/", "potentialAction": {{"@type": "SearchAction", "target": "{target}", '
                '"query-input": "required name=search_term_string"}}</script>' + out
            )
        return out

    def _vendor_tenant(self, vhost: str, path: str, act: Action, site: Site) -> None:
        """heldout18-20: a site's record search answered by a vendor's platform on another registered
        domain (one site object per platform; each client site under its own path)."""
        app = self.vendor_sites.get(vhost)
        if app is None:
            vname = {
                "www.noticeboard-platform.test": "NoticeBoard Platform",
                "registry.seacloud-systems.test": "SeaCloud Registry Systems",
                "bid.salecatalogue-live.test": "SaleCatalogue Live",
            }.get(vhost, "Storefront Cloud")
            app = Site(self, vhost, vname, "app", act.topic)
            app.robots = "User-agent: *\nDisallow: /admin/\nDisallow: /api/\n"
            app.clients = []
            self.vendor_sites[vhost] = app
            self.app_sites.append(app)
        app.actions[path] = act
        app.clients.append(site)
        app.pages["/"] = (
            f"<!DOCTYPE html>\n<html><head><title>{E(app.name)}</title></head><body><h1>{E(app.name)}</h1>"
            f"<p>{'Hosted catalogue search for independent shops' if vhost == FRESH7_SHOP_VENDOR else 'Hosted search for publishers, registers and salerooms'}.</p>"
            "<h2>Some of our clients</h2><ul>"
            + "".join(f'<li><a href="http://{c.host}/">{E(c.name)}</a></li>' for c in app.clients)
            + "</ul></body></html>\n"
        )

    def _fresh7_form(self, site: Site, kind: str, rng: random.Random) -> tuple[str, tuple]:
        """Forms of heldout18-20 that are not searches of records, several shaped like the search:
        placing a notice, a tribute, applying to register a vessel, ordering a transcript of
        registry, requesting a valuation, leaving a commission bid (all POST)."""
        t = TOPICS.get(site.topic, {})
        cats = "".join(f'<option value="{slug(c)}">{E(c)}</option>' for c in t.get("categories", ["General"])[:8])
        fmts = "".join(f'<option value="{slug(c)}">{E(c)}</option>' for c in t.get("formats", ["General"]))
        labels = t.get("labels", {"category": "Category", "format": "Type"})
        if kind == "notice":
            action = rng.choice(["/notices/place", "/place-a-notice/submit"])
            h = (
                f"<h3>{E(rng.choice(['Place a notice', 'Announce a death', 'Add an announcement']))}</h3>"
                f'<form action="{action}" method="post"><label>Surname of the deceased <input type="text" name="surname"></label> '
                '<label>First name(s) <input type="text" name="forename"></label> '
                f'<label>{E(labels["category"])} <select name="town">{cats}</select></label> '
                f'<label>{E(labels["format"])} <select name="type">{fmts}</select></label> '
                '<label>Date of death <input type="date" name="died"></label> <label>Your email <input type="email" name="email"></label> '
                '<input type="submit" value="Continue to wording"></form>'
            )
        elif kind == "tribute":
            action = rng.choice(["/tributes/add", "/guestbook/sign"])
            h = (
                f'<form action="{action}" method="post"><label>Notice number <input type="text" name="notice"></label> '
                '<label>Your name <input type="text" name="name"></label> <label>Your tribute <textarea name="message" rows="4"></textarea></label> '
                '<label><input type="checkbox" name="candle" value="1"> Light a candle</label> <input type="submit" value="Leave tribute"></form>'
            )
        elif kind == "vesselreg":
            action = rng.choice(["/registration/submit", "/apply/vessel"])
            h = (
                f"<h3>{E(rng.choice(['Register a vessel', 'Apply to register', 'New registration']))}</h3>"
                f'<form action="{action}" method="post"><label>Vessel name <input type="text" name="name"></label> '
                '<label>IMO number <input type="text" name="imo"></label> '
                f'<label>{E(labels["category"])} <select name="type">{cats}</select></label> '
                f'<label>{E(labels["format"])} <select name="part">{fmts}</select></label> '
                '<label>Owner <input type="text" name="owner"></label> <label>Email <input type="email" name="email"></label> '
                '<input type="submit" value="Start application"></form>'
            )
        elif kind == "transcriptorder":
            action = rng.choice(["/transcripts/order", "/copies/request"])
            h = (
                f'<form action="{action}" method="post"><label>Official number <input type="text" name="official_no"></label> '
                '<label>Transcript <select name="kind"><option>Current transcript</option><option>Historic transcript</option>'
                '<option>Certificate of deletion</option></select></label> <label>Email <input type="email" name="email"></label> '
                '<input type="submit" value="Order"></form>'
            )
        elif kind == "appraisal":
            action = rng.choice(["/valuations/request", "/free-valuation/send"])
            h = (
                f"<h3>{E(rng.choice(['Free auction valuation', 'Thinking of selling?', 'Request a valuation']))}</h3>"
                f'<form action="{action}" method="post" enctype="multipart/form-data"><label>What is it? <input type="text" name="item"></label> '
                f'<label>{E(labels["category"])} <select name="department">{cats}</select></label> '
                '<label>Maker or artist, if known <input type="text" name="maker"></label> '
                '<label>Photographs <input type="file" name="photos" multiple></label> <label>Email <input type="email" name="email"></label> '
                '<input type="submit" value="Send for valuation"></form>'
            )
        elif kind == "deposit":
            action = rng.choice(["/deposit/submit", "/repository/deposit"])
            h = (
                f"<h3>{E(rng.choice(['Deposit your final copy', 'Add your research', 'Deposit your work']))}</h3>"
                f'<form action="{action}" method="post" enctype="multipart/form-data"><label>Title <input type="text" name="title"></label> '
                '<label>Author <input type="text" name="author"></label> <label>Supervisor <input type="text" name="supervisor"></label> '
                f'<label>{E(labels["category"])} <select name="department">{cats}</select></label> '
                f'<label>{E(labels["format"])} <select name="degree">{fmts}</select></label> '
                '<label>Full text (PDF) <input type="file" name="fulltext"></label> <label>University email <input type="email" name="email"></label> '
                '<input type="submit" value="Deposit"></form>'
            )
        elif kind == "podsubmit":
            action = rng.choice(["/podcasters/submit", "/add-show"])
            h = (
                f"<h3>{E(rng.choice(['Submit your podcast', 'Add your show', 'Make podcasts? Get listed']))}</h3>"
                f'<form action="{action}" method="post"><label>RSS feed address <input type="url" name="feed"></label> '
                '<label>Show name <input type="text" name="show"></label> <label>Host <input type="text" name="host"></label> '
                f'<label>{E(labels["category"])} <select name="category">{cats}</select></label> '
                f'<label>{E(labels["format"])} <select name="frequency">{fmts}</select></label> '
                '<label>Email <input type="email" name="email"></label> <input type="submit" value="Submit show"></form>'
            )
        elif kind == "objection":
            action = rng.choice(["/comments/submit", "/planning/comment"])
            h = (
                f"<h3>{E(rng.choice(['Comment on an application', 'Have your say', 'Make a representation']))}</h3>"
                f'<form action="{action}" method="post"><label>Application reference <input type="text" name="reference"></label> '
                '<label>Site address <input type="text" name="address"></label> <label>Your name <input type="text" name="name"></label> '
                '<label>Your comment is <select name="stance"><option>An objection</option><option>In support</option><option>Neutral</option></select></label> '
                '<label>Comments <textarea name="comments" rows="5"></textarea></label> <input type="submit" value="Send comment"></form>'
            )
        elif kind == "suggestword":
            action = rng.choice(["/suggest/send", "/words/suggest"])
            h = (
                f"<h3>{E(rng.choice(['Suggest a word', 'Know a word we have missed?', 'Send us a word']))}</h3>"
                f'<form action="{action}" method="post"><label>Word <input type="text" name="word"></label> '
                '<label>What it means <input type="text" name="meaning"></label> <label>Used in a sentence <textarea name="example" rows="3"></textarea></label> '
                f'<label>{E(labels["category"])} <select name="field">{cats}</select></label> '
                f'<label>{E(labels["format"])} <select name="pos">{fmts}</select></label> '
                '<label>Where you heard it <input type="text" name="where"></label> <label>Email <input type="email" name="email"></label> '
                '<input type="submit" value="Send the word"></form>'
            )
        elif kind == "campreview":
            action = rng.choice(["/reviews/submit", "/write-a-review/send"])
            h = (
                f"<h3>{E(rng.choice(['Review your stay', 'Tell other campers', 'Write a review']))}</h3>"
                f'<form action="{action}" method="post"><label>Name of the site you stayed at <input type="text" name="name"></label> '
                '<label>Town or postcode <input type="text" name="location"></label> <label>Date of your stay <input type="date" name="stayed"></label> '
                f'<label>{E(labels["category"])} <select name="pitch">{cats}</select></label> '
                '<label>Your rating <select name="rating"><option>5 stars</option><option>4 stars</option><option>3 stars</option><option>2 stars</option><option>1 star</option></select></label> '
                '<label>Your review <textarea name="review" rows="5"></textarea></label> <input type="submit" value="Post review"></form>'
            )
        elif kind == "concern":
            action = rng.choice(["/concerns/submit", "/report-a-concern/send"])
            h = (
                f"<h3>{E(rng.choice(['Report a concern', 'Worried about an organisation?', 'Tell us about a problem']))}</h3>"
                f'<form action="{action}" method="post"><label>Name of the organisation <input type="text" name="name"></label> '
                '<label>Registration number (if you know it) <input type="text" name="regno"></label> '
                f'<label>{E(labels["category"])} <select name="cause">{cats}</select></label> '
                '<label>What worries you <select name="issue"><option>Fundraising</option><option>Money or accounts</option>'
                "<option>Safeguarding</option><option>Trustees</option><option>Something else</option></select></label> "
                '<label>Tell us more <textarea name="details" rows="5"></textarea></label> <label>Your email <input type="email" name="email"></label> '
                '<input type="submit" value="Send report"></form>'
            )
        elif kind == "placeapply":
            action = rng.choice(["/admissions/apply", "/apply-for-a-place/save"])
            prefs = '<option value="">Choose</option>' + "".join(
                f'<option value="{slug(r.title)}">{E(r.title)}</option>' for r in site.records[:8]
            )
            h = (
                f"<h3>{E(rng.choice(['Apply for a place', 'Start your application', 'Apply for a September place']))}</h3>"
                f'<form action="{action}" method="post"><label>Child\'s surname <input type="text" name="surname"></label> '
                '<label>Child\'s first name <input type="text" name="forename"></label> <label>Date of birth <input type="date" name="dob"></label> '
                '<label>Home postcode <input type="text" name="postcode"></label> '
                f'<label>{E(labels["category"])} <select name="phase">{cats}</select></label> '
                f'<label>First preference <select name="pref1">{prefs}</select></label> '
                f'<label>Second preference <select name="pref2">{prefs}</select></label> '
                f'<label>Third preference <select name="pref3">{prefs}</select></label> '
                '<input type="submit" value="Save and continue"></form>'
            )
        elif kind == "pathreport":
            action = rng.choice(["/paths/report", "/report-a-problem-on-a-path/send"])
            h = (
                f"<h3>{E(rng.choice(['Report a path problem', 'Found a problem on a route?', 'Blocked path?']))}</h3>"
                f'<form action="{action}" method="post"><label>Route name <input type="text" name="name"></label> '
                '<label>Grid reference or nearest place <input type="text" name="grid"></label> '
                f'<label>{E(labels["category"])} <select name="type">{cats}</select></label> '
                '<label>Problem <select name="problem"><option>Path blocked</option><option>Broken stile or gate</option>'
                "<option>Signpost missing</option><option>Bull in field</option><option>Flooding</option></select></label> "
                '<label>Details <textarea name="details" rows="4"></textarea></label> <label>Photo <input type="file" name="photo"></label> '
                '<input type="submit" value="Report it"></form>'
            )
        elif kind == "lyricsubmit":
            action = rng.choice(["/lyrics/submit", "/submit-lyrics/send"])
            h = (
                f"<h3>{E(rng.choice(['Submit lyrics', 'Add a song', 'Send us the words']))}</h3>"
                f'<form action="{action}" method="post"><label>Song title <input type="text" name="song"></label> '
                '<label>Artist or writer <input type="text" name="artist"></label> <label>Album <input type="text" name="album"></label> '
                f'<label>{E(labels["category"])} <select name="style">{cats}</select></label> '
                '<label>The words <textarea name="words" rows="8"></textarea></label> <label>Your email <input type="email" name="email"></label> '
                '<input type="submit" value="Send the song"></form>'
            )
        elif kind == "copyorder":
            action = rng.choice(["/copies/order", "/order-copies/basket"])
            h = (
                f"<h3>{E(rng.choice(['Order copies', 'Order a copy of a document', 'Copies and reproductions']))}</h3>"
                f'<form action="{action}" method="post"><label>Reference code <input type="text" name="refno"></label> '
                '<label>Title of the document <input type="text" name="title"></label> '
                f'<label>{E(labels["category"])} <select name="subject">{cats}</select></label> '
                '<label>Kind of copy <select name="copy"><option>Digital image</option><option>Photocopy</option>'
                "<option>Certified copy</option><option>Large-format scan</option></select></label> "
                '<label>Your email <input type="email" name="email"></label> <input type="submit" value="Add to order"></form>'
            )
        elif kind == "sightingsubmit":
            action = rng.choice(["/records/submit", "/submit-a-sighting/send"])
            h = (
                f"<h3>{E(rng.choice(['Submit a sighting', 'Send in your record', 'Tell us what you saw']))}</h3>"
                f'<form action="{action}" method="post"><label>Species <input type="text" name="species"></label> '
                '<label>Site or town <input type="text" name="site"></label> <label>Grid reference <input type="text" name="gridref"></label> '
                f'<label>{E(labels["category"])} <select name="group">{cats}</select></label> '
                '<label>Date seen <input type="date" name="seen"></label> <label>How many <input type="number" name="count"></label> '
                '<label>Your name <input type="text" name="observer"></label> <label>Photo <input type="file" name="photo"></label> '
                '<input type="submit" value="Send record"></form>'
            )
        elif kind == "sideeffect":
            action = rng.choice(["/side-effects/report", "/report-a-side-effect/send"])
            h = (
                f"<h3>{E(rng.choice(['Report a side effect', 'Report a suspected side effect', 'Tell us about a reaction']))}</h3>"
                f'<form action="{action}" method="post"><label>Product name <input type="text" name="product"></label> '
                '<label>Active ingredient <input type="text" name="ingredient"></label> <label>Batch number <input type="text" name="batch"></label> '
                f'<label>{E(labels["category"])} <select name="area">{cats}</select></label> '
                '<label>What happened <textarea name="reaction" rows="5"></textarea></label> <label>Date it started <input type="date" name="started"></label> '
                '<label>Your email <input type="email" name="email"></label> <input type="submit" value="Send report"></form>'
            )
        elif kind == "mapcopy":
            action = rng.choice(["/reproductions/order", "/order-a-reproduction/basket"])
            h = (
                f"<h3>{E(rng.choice(['Order a reproduction', 'Order a print or scan', 'Copies of maps and plans']))}</h3>"
                f'<form action="{action}" method="post"><label>Shelfmark <input type="text" name="shelfmark"></label> '
                '<label>Title <input type="text" name="title"></label> <label>Place <input type="text" name="place"></label> '
                f'<label>{E(labels["category"])} <select name="kind">{cats}</select></label> '
                '<label>Size <select name="size"><option>A4</option><option>A3</option><option>A2</option><option>Full size</option>'
                "<option>Digital file (TIFF)</option></select></label> "
                '<label>Your email <input type="email" name="email"></label> <input type="submit" value="Add to order"></form>'
            )
        elif kind == "companydocs":
            action = rng.choice(["/documents/order", "/order-documents/basket"])
            h = (
                f"<h3>{E(rng.choice(['Order company documents', 'Order certified copies', 'Copies of filed accounts']))}</h3>"
                f'<form action="{action}" method="post"><label>Company number <input type="text" name="number"></label> '
                '<label>Company name <input type="text" name="name"></label> '
                f'<label>{E(labels["format"])} <select name="type">{fmts}</select></label> '
                '<label>Document <select name="document"><option>Latest accounts</option><option>Confirmation statement</option>'
                "<option>Certificate of incorporation</option><option>Articles of association</option></select></label> "
                '<label>Certified copy <input type="checkbox" name="certified" value="1"></label> '
                '<label>Your email <input type="email" name="email"></label> <input type="submit" value="Add to order"></form>'
            )
        elif kind == "specimenloan":
            action = rng.choice(["/loans/request", "/request-a-loan/send"])
            h = (
                f"<h3>{E(rng.choice(['Request a loan', 'Borrow specimens for research', 'Ask to visit the collections']))}</h3>"
                f'<form action="{action}" method="post"><label>Scientific name <input type="text" name="taxon"></label> '
                '<label>Catalogue numbers <input type="text" name="catno"></label> '
                f'<label>{E(labels["category"])} <select name="collection">{cats}</select></label> '
                '<label>Institution <input type="text" name="institution"></label> '
                '<label>Purpose of the loan <textarea name="purpose" rows="5"></textarea></label> '
                '<label>Your email <input type="email" name="email"></label> <input type="submit" value="Send request"></form>'
            )
        elif kind == "printorder":
            action = rng.choice(["/prints/order", "/order-a-print/basket"])
            h = (
                f"<h3>{E(rng.choice(['Order a print', 'Buy a copy of a picture', 'Prints and scans']))}</h3>"
                f'<form action="{action}" method="post"><label>Negative number <input type="text" name="negno"></label> '
                '<label>Place <input type="text" name="place"></label> '
                f'<label>{E(labels["category"])} <select name="subject">{cats}</select></label> '
                '<label>Size <select name="size"><option>6 x 4 in</option><option>10 x 8 in</option><option>A3</option>'
                "<option>Digital file (JPEG)</option></select></label> "
                '<label>Your email <input type="email" name="email"></label> <input type="submit" value="Add to order"></form>'
            )
        elif kind == "datarequest":
            action = rng.choice(["/data-requests/new", "/request-data/send"])
            h = (
                f"<h3>{E(rng.choice(['Request data', 'Ask for a dataset', 'Cannot find the data you need?']))}</h3>"
                f'<form action="{action}" method="post"><label>Title of the data <input type="text" name="title"></label> '
                '<label>Publisher, if you know it <input type="text" name="publisher"></label> '
                f'<label>{E(labels["category"])} <select name="theme">{cats}</select></label> '
                f'<label>{E(labels["format"])} <select name="format">{fmts}</select></label> '
                '<label>What do you need it for? <textarea name="purpose" rows="5"></textarea></label> '
                '<label>Your email <input type="email" name="email"></label> <input type="submit" value="Send request"></form>'
            )
        elif kind == "buildingrisk":
            action = rng.choice(["/at-risk/report", "/report-a-building-at-risk/send"])
            h = (
                f"<h3>{E(rng.choice(['Report a building at risk', 'Tell us about a building in danger', 'Is a listed building neglected?']))}</h3>"
                f'<form action="{action}" method="post"><label>Building name <input type="text" name="name"></label> '
                '<label>Street or place <input type="text" name="street"></label> <label>List entry number, if you know it <input type="text" name="entry"></label> '
                f'<label>{E(labels["category"])} <select name="type">{cats}</select></label> '
                f'<label>{E(labels["format"])} <select name="grade">{fmts}</select></label> '
                '<label>What is wrong <textarea name="problem" rows="5"></textarea></label> '
                '<label>Your email <input type="email" name="email"></label> <input type="submit" value="Send report"></form>'
            )
        elif kind == "pageorder":
            action = rng.choice(["/copies/order", "/order-a-page/basket"])
            h = (
                f"<h3>{E(rng.choice(['Order a page', 'Order a copy of an article', 'Copies of newspaper pages']))}</h3>"
                f'<form action="{action}" method="post"><label>Newspaper title <input type="text" name="title"></label> '
                '<label>Date of issue <input type="date" name="date"></label> <label>Page <input type="number" name="page"></label> '
                f'<label>{E(labels["category"])} <select name="section">{cats}</select></label> '
                '<label>Copy <select name="copy"><option>A3 print</option><option>A2 print</option><option>PDF</option>'
                "<option>Framed print</option></select></label> "
                '<label>Your email <input type="email" name="email"></label> <input type="submit" value="Add to order"></form>'
            )
        elif kind == "councilquestion":
            action = rng.choice(["/public-questions/submit", "/democracy/ask"])
            h = (
                f"<h3>{E(rng.choice(['Ask a question at council', 'Public question time', 'Submit a question']))}</h3>"
                f'<form action="{action}" method="post"><label>Meeting <input type="text" name="meeting"></label> '
                '<label>Subject <input type="text" name="subject"></label> '
                f'<label>{E(labels["category"])} <select name="committee">{cats}</select></label> '
                '<label>Your question <textarea name="question" rows="5"></textarea></label> '
                '<label>Your name <input type="text" name="name"></label> '
                '<label>Your email <input type="email" name="email"></label> <input type="submit" value="Send question"></form>'
            )
        elif kind == "wreckreport":
            action = rng.choice(["/report-a-wreck/send", "/droits/report"])
            h = (
                f"<h3>{E(rng.choice(['Report a wreck', 'Found wreck material?', 'Tell the receiver of wreck']))}</h3>"
                f'<form action="{action}" method="post"><label>Vessel name (if known) <input type="text" name="vessel"></label> '
                '<label>Where found <input type="text" name="place"></label> '
                f'<label>{E(labels["category"])} <select name="type">{cats}</select></label> '
                '<label>Date found <input type="date" name="date"></label> <label>Photo <input type="file" name="photo"></label> '
                '<label>Your email <input type="email" name="email"></label> <input type="submit" value="Send report"></form>'
            )
        elif kind == "scorecard":
            action = rng.choice(["/scorecards/new", "/send-a-scorecard/send"])
            h = (
                f"<h3>{E(rng.choice(['Send us a scorecard', 'Add a match', 'Upload a scorebook page']))}</h3>"
                f'<form action="{action}" method="post"><label>Home team <input type="text" name="home"></label> '
                '<label>Away team <input type="text" name="away"></label> <label>Ground <input type="text" name="ground"></label> '
                f'<label>{E(labels["category"])} <select name="competition">{cats}</select></label> '
                '<label>Date played <input type="date" name="date"></label> <label>Scorebook page <input type="file" name="scan"></label> '
                '<label>Your email <input type="email" name="email"></label> <input type="submit" value="Send scorecard"></form>'
            )
        elif kind == "expertise":
            action = rng.choice(["/expertising/request", "/certificates/apply"])
            h = (
                f"<h3>{E(rng.choice(['Get a stamp expertised', 'Apply for a certificate', 'Is your stamp genuine?']))}</h3>"
                f'<form action="{action}" method="post"><label>Design or issue <input type="text" name="design"></label> '
                '<label>Catalogue number <input type="text" name="catno"></label> '
                f'<label>{E(labels["category"])} <select name="type">{cats}</select></label> '
                f'<label>{E(labels["format"])} <select name="condition">{fmts}</select></label> '
                '<label>Scan of the stamp <input type="file" name="scan"></label> '
                '<label>Your email <input type="email" name="email"></label> <input type="submit" value="Send request"></form>'
            )
        elif kind == "namesubmit":
            action = rng.choice(["/names/suggest", "/send-us-a-name/send"])
            h = (
                f"<h3>{E(rng.choice(['Send us a name', 'Know a name we have missed?', 'Add a field name']))}</h3>"
                f'<form action="{action}" method="post"><label>Place-name <input type="text" name="name"></label> '
                '<label>Parish <input type="text" name="parish"></label> <label>Where you found it <input type="text" name="source"></label> '
                f'<label>{E(labels["category"])} <select name="kind">{cats}</select></label> '
                '<label>Notes <textarea name="notes" rows="5"></textarea></label> '
                '<label>Your email <input type="email" name="email"></label> <input type="submit" value="Send name"></form>'
            )
        elif kind == "towervisit":
            action = rng.choice(["/visits/book", "/book-a-tower-visit/send"])
            h = (
                f"<h3>{E(rng.choice(['Book a tower visit', 'Visit a ringing chamber', 'Ring with us']))}</h3>"
                f'<form action="{action}" method="post"><label>Tower <input type="text" name="tower"></label> '
                '<label>Place <input type="text" name="place"></label> <label>Date <input type="date" name="date"></label> '
                f'<label>{E(labels["category"])} <select name="ring">{cats}</select></label> '
                '<label>Number of visitors <input type="number" name="people"></label> '
                '<label>Your email <input type="email" name="email"></label> <input type="submit" value="Book visit"></form>'
            )
        elif kind == "findreport":
            action = rng.choice(["/record/new", "/record-a-find/send"])
            h = (
                f"<h3>{E(rng.choice(['Record a find', 'Tell us about your find', 'Have you found something?']))}</h3>"
                f'<form action="{action}" method="post"><label>Object type <input type="text" name="object"></label> '
                '<label>Parish or place <input type="text" name="place"></label> '
                f'<label>{E(labels["category"])} <select name="type">{cats}</select></label> '
                f'<label>{E(labels["format"])} <select name="material">{fmts}</select></label> '
                '<label>Date found <input type="date" name="found"></label> <label>Photo <input type="file" name="photo"></label> '
                '<label>Your email <input type="email" name="email"></label> <input type="submit" value="Send record"></form>'
            )
        elif kind == "bid":
            action = rng.choice(["/bids/commission", "/absentee-bid"])
            h = (
                f'<form action="{action}" method="post"><label>Lot number <input type="text" name="lot"></label> '
                '<label>Your maximum bid (pounds) <input type="number" name="max_bid"></label> '
                '<label>Bidder number <input type="text" name="bidder"></label> <input type="submit" value="Place commission bid"></form>'
            )
        else:
            raise ValueError(kind)
        site.actions[action] = Action(kind, "none")
        return h, (action, "post", kind, "none")

    def _branch_finder(self, site: Site) -> tuple[str, tuple]:
        """heldout13-15: a finder of the business's branches by town or postcode. It queries a
        database and lists records (branches), so it is searchable; its records are not the
        topic's, so it is not relevant."""
        rng = random.Random(f"{self.seed}-{site.host}-branches")
        towns = rng.sample(
            ["Leeds", "York", "Harrogate", "Wakefield", "Otley", "Ilkley", "Skipton", "Ripon", "Selby", "Keighley"], rng.randrange(3, 8)
        )
        site.branches = []
        for i, town in enumerate(towns):
            pc = f"{town[:2].upper()}{rng.randrange(1, 20)}"
            p = f"/branches/{slug(town)}"
            site.branches.append(
                Record(i, f"{site.name}, {town}", site.name, "Branch", pc, "", f"{town} {pc} branch office".lower(), href=p)
            )
        action = rng.choice(["/branches/search", "/find-a-branch/results", "/offices/near"])
        site.actions[action] = Action(
            "search", "branches", [("location", "text"), ("radius", "other")], site.branches, "/branches/", "branch", "branches"
        )
        h = (
            f'<form action="{action}" method="get" class="branch-finder"><label>Town or postcode <input type="text" name="location" placeholder="e.g. LS6"></label> '
            '<select name="radius" aria-label="Distance"><option>5 miles</option><option>10 miles</option><option>25 miles</option></select> '
            f'<input type="submit" value="{E(rng.choice(["Find a branch", "Find offices", "Search"]))}"></form>'
        )
        return h, (action, "get", "search", "branches")

    def _hosted_site_search(self, site: Site, rng: random.Random) -> None:
        """heldout13-15: the site's own pages searched by a hosted search service on
        search.NAME.test (a site search: searchable, not of the records)."""
        app_host = "search" + site.host[len("www") :]
        pages = [("About us", "/about"), ("Help", "/help"), ("Contact us", "/contact"), ("Find a branch", "/stores"), ("News", "/news/")]
        recs = [
            Record(i, tt, site.name, "", "", "", f"{tt} {site.name}".lower(), href=f"http://{site.host}{h}")
            for i, (tt, h) in enumerate(pages)
        ]
        app = Site(self, app_host, f"{site.name} site search", "app", "site")
        app.robots = "User-agent: *\nDisallow: /admin/\n"
        app.actions["/s/search.html"] = Action("search", "site", [("query", "text")], recs, "/", "page", "pages")
        app.pages["/"] = (
            f'<!DOCTYPE html>\n<html><head><title>Search</title></head><body><p><a href="http://{site.host}/">{E(site.name)}</a></p></body></html>\n'
        )
        self.app_sites.append(app)
        action = f"http://{app_host}/s/search.html"
        coll = slug(site.name)[:20]
        site.header_form = (
            f'<form class="site-search" action="{action}" method="get" role="search"><input type="hidden" name="collection" value="{coll}-web">'
            f'<label for="hosted-q">Search</label><input type="text" id="hosted-q" name="query" placeholder="Search {E(site.name)}">'
            '<button type="submit">Go</button></form>'
        )
        site.layout_forms = site.layout_forms + [(action, "get", "search", "site")]

    def _newsfirst(self, site: Site, rng: random.Random) -> str:
        """heldout10-12: a blog with an archive by month (tag pages disallowed by robots.txt),
        press releases, an annual review, a volunteers page; returns the start of the home page:
        the latest posts and the whole archive, before anything about the records."""
        t = TOPICS[site.topic]
        brng = random.Random(f"{self.seed}-{site.host}-blog")
        heads = [
            "A day in the life of our team",
            "What we learned this year",
            "Meet our new trustees",
            "Five questions for our director",
            "Our response to the consultation",
            "Behind the scenes",
            "Thank you to our volunteers",
            "Notes from the conference",
            "Changes to our website",
            "Looking back at the summer",
        ]
        tags = ["news", "people", "events", "behind-the-scenes", "updates"]
        months = [(y, m) for y in (2025, 2026) for m in range(1, 13) if (y, m) <= (2026, 11)][-brng.randrange(14, 22) :]
        posts = []
        for y, m in months:
            month_posts = []
            for k in range(brng.choice([1, 2, 2, 3])):
                title = brng.choice(heads)
                p = f"/blog/{y}/{m:02d}/{slug(title)}-{k + 1}/"
                ptags = brng.sample(tags, 2)
                h, f = self._simple_form(site, p, "comment", brng)
                site.page(
                    p,
                    title,
                    f"<p>{E(' '.join(brng.sample(t['sentences'], 2)))}</p><p>Tagged: "
                    + ", ".join(f'<a href="/blog/tag/{g}/">{g}</a>' for g in ptags)
                    + f' &middot; <a href="/print/blog/{y}/{m:02d}/{k + 1}">Print</a></p>{h}',
                    crumbs=[("Blog", "/blog/"), (f"{y}-{m:02d}", f"/blog/{y}/{m:02d}/"), (title, p)],
                    forms=[f],
                )
                month_posts.append((p, title, ptags))
            site.page(
                f"/blog/{y}/{m:02d}/",
                f"Blog: {y}-{m:02d}",
                "<ul>" + "".join(f'<li><a href="{p}">{E(title)}</a></li>' for p, title, _ in month_posts) + "</ul>",
                crumbs=[("Blog", "/blog/"), (f"{y}-{m:02d}", f"/blog/{y}/{m:02d}/")],
            )
            posts += month_posts
        for g in tags:
            tagged = [(p, title) for p, title, ptags in posts if g in ptags]
            site.page(
                f"/blog/tag/{g}/", f"Posts tagged {g}", "<ul>" + "".join(f'<li><a href="{p}">{E(x)}</a></li>' for p, x in tagged) + "</ul>"
            )
        archive = "".join(f'<li><a href="/blog/{y}/{m:02d}/">{y}-{m:02d}</a></li>' for y, m in reversed(months))
        site.page("/blog/", "Blog", f"<h2>Archive</h2><ul>{archive}</ul>", crumbs=[("Blog", "/blog/")])
        releases = []
        for i in range(4):
            title = brng.choice(["Annual figures published", "New partnership announced", "Award for our team", "Statement on funding"])
            p = f"/press/{2026 - i}-{slug(title)}"
            releases.append((p, title))
            site.page(p, title, f"<p>{E(title)}. {E(brng.choice(t['sentences']))}</p>", crumbs=[("Press", "/press/"), (title, p)])
        site.page("/press/", "Press", "<ul>" + "".join(f'<li><a href="{p}">{E(x)}</a></li>' for p, x in releases) + "</ul>")
        site.page("/annual-review", "Annual review", f"<p>{E(' '.join(t['sentences'][:2]))}</p><p>Read the full review as a PDF.</p>")
        h, f = self._simple_form(site, "/volunteer", "contact", brng)
        site.page("/volunteer", "Volunteer with us", f"<p>We could not do it without our volunteers.</p>{h}", forms=[f])
        latest = list(reversed(posts))[:8]
        return (
            "<h2>Latest from the blog</h2><ul>"
            + "".join(f'<li><a href="{p}">{E(title)}</a></li>' for p, title, _ in latest)
            + f'</ul><h2>Blog archive</h2><ul class="archive">{archive}</ul>'
            + "<h2>About us</h2><p>"
            + '<a href="/about">Who we are</a> &middot; <a href="/press/">Press</a> &middot; <a href="/annual-review">Annual review</a> &middot; '
            + '<a href="/volunteer">Volunteer with us</a> &middot; <a href="/events">Events</a></p>'
        )

    def _offtopic4(self, host: str, name: str, topic: str, search_action: str, search_name: str, search_label: str) -> Site:
        """An off-topic site of heldout10-12 with a site-wide search box in every page's header."""
        site = Site(self, host, name, "offtopic", topic)
        self.sites[host] = site
        site.header_form = (
            f'<form action="{search_action}" method="get" role="search" class="site-search"><label for="hs">{E(search_label)}</label>'
            f'<input type="search" id="hs" name="{search_name}"><button type="submit">Search</button></form>'
        )
        site.layout_forms = [(search_action, "get", "search", topic if search_action != "/" else "site:" + topic)]
        return site

    def _hospital_site(self) -> None:
        """heldout10-12: a hospital trust: site search, a consultant finder (records of doctors, no
        scored topic), a research page listing trials it takes part in (no search), an appointment
        request, a patient-portal login, news."""
        rng = random.Random(f"{self.seed}-hospital")
        site = self._offtopic4("www.staidans-hospitals.test", "St Aidan's Hospitals", "hospital", "/search", "q", "Search this site")
        news_html, news_entry = self.newsletter(site, rng)
        site.footer_form = news_html
        site.layout_forms = site.layout_forms + [news_entry]
        site.menu = [
            ("Home", "/"),
            ("Our services", "/services/"),
            ("Find a consultant", "/consultants/"),
            ("Research", "/research/"),
            ("Visiting", "/visiting"),
            ("News", "/news/"),
            ("Patient portal", "/portal/login"),
        ]
        site.footer = [("Contact", "/contact"), ("Jobs", "/jobs"), ("Freedom of information", "/foi")]
        specs = ["Cardiology", "Oncology", "Orthopaedics", "Paediatrics", "Neurology", "Respiratory medicine", "Dermatology", "Psychiatry"]
        docs = []
        for i in range(24):
            nm = f"Dr {rng.choice(['A.', 'B.', 'C.', 'D.', 'E.', 'F.'])} {rng.choice(['Shah', 'Murphy', 'Chen', 'Adeyemi', 'Walsh', 'Novak', 'Price', 'Khan'])}"
            sp = rng.choice(specs)
            p = f"/consultants/{i + 1}"
            docs.append(Record(i, nm, "St Aidan's", sp, "Consultant", "", f"{nm} {sp}".lower(), href=p))
            site.page(
                p,
                nm,
                f"<p>{E(nm)}, consultant in {E(sp)}. Clinics on Mondays and Thursdays.</p>",
                crumbs=[("Find a consultant", "/consultants/"), (nm, p)],
            )
        opts = '<option value="">All specialties</option>' + "".join(f'<option value="{slug(x)}">{E(x)}</option>' for x in specs)
        site.actions["/consultants/results"] = Action(
            "search", "hospital", [("name", "text"), ("specialty", "category")], docs, "/consultants/", "consultant", "consultants"
        )
        site.page(
            "/consultants/",
            "Find a consultant",
            f'<form action="/consultants/results" method="get"><label>Name <input type="text" name="name"></label> '
            f'<label>Specialty <select name="specialty">{opts}</select></label> <input type="submit" value="Find a consultant"></form>',
            forms=[("/consultants/results", "get", "search", "hospital")],
        )
        tr = TOPICS["trials"]
        studies = [f"{a} {b}" for a, b in zip(rng.sample(tr["title_a"], 6), rng.sample(tr["title_b"], 6), strict=True)]
        site.page(
            "/research/",
            "Research and clinical trials",
            "<p>St Aidan's takes part in more than sixty clinical trials every year. Taking part in a trial is your choice; "
            "ask your consultant whether a study is recruiting for your condition. Studies recruiting now:</p><ul>"
            + "".join(f"<li>{E(x)} (phase {rng.choice(['II', 'III'])}, recruiting)</li>" for x in studies)
            + "</ul><p>Our research nurses can tell you about eligibility, consent and what happens in a trial.</p>",
            crumbs=[("Research", "/research/")],
        )
        action = "/appointments/request"
        site.actions[action] = Action("booking", "none")
        site.page(
            "/services/",
            "Our services",
            "<ul>" + "".join(f"<li>{E(x)}</li>" for x in specs) + "</ul>"
            f'<h2>Request an appointment</h2><form action="{action}" method="post"><label>Name <input type="text" name="name"></label> '
            f'<label>Date of birth <input type="date" name="dob"></label> <label>Specialty <select name="spec">{opts}</select></label> '
            '<label>Phone <input type="tel" name="phone"></label> <input type="submit" value="Request appointment"></form>',
            forms=[(action, "post", "booking", "none")],
        )
        h, f = self._simple_form(site, "/portal/login", "login", rng)
        site.page("/portal/login", "Patient portal", f"<p>See your letters and test results online.</p>{h}", forms=[f])
        h, f = self._simple_form(site, "/contact", "contact", rng)
        site.page("/contact", "Contact", h, forms=[f])
        posts = []
        for i in range(14):
            title = f"{rng.choice(['New', 'Improved', 'Extended', 'Award for'])} {rng.choice(['scanner', 'children’s ward', 'car parking', 'visiting hours', 'research unit', 'stroke service'])}"
            p = f"/news/2026/{i + 1:02d}-{slug(title)}"
            posts.append((p, title))
            site.page(
                p,
                title,
                f"<p>{E(title)} at St Aidan's. Patients and visitors will notice the change from next month.</p>",
                crumbs=[("News", "/news/"), (title, p)],
            )
        site.page("/news/", "News", "<ul>" + "".join(f'<li><a href="{p}">{E(x)}</a></li>' for p, x in posts) + "</ul>")
        for p, title in (("/visiting", "Visiting"), ("/jobs", "Jobs"), ("/foi", "Freedom of information")):
            site.page(p, title, f"<p>{E(title)} at St Aidan's Hospitals.</p>")
        pages = posts + [("/research/", "Research and clinical trials"), ("/services/", "Our services"), ("/visiting", "Visiting")]
        site.actions["/search"] = Action(
            "search",
            "hospital",
            [("q", "text")],
            [Record(100 + i, x, "St Aidan's", "Page", "", "", x.lower(), href=p) for i, (p, x) in enumerate(pages)],
            "/",
            "page",
            "pages",
        )
        site.page(
            "/",
            "St Aidan's Hospitals",
            '<p>Caring for our community. <a href="/research/">Take part in research</a> &middot; <a href="/consultants/">Find a consultant</a>.</p>',
        )

    def _lawfirm_site(self) -> None:
        """heldout10-12: a law firm: a WordPress site search, a "find a lawyer" search (areas of law
        in its select; records of people), a notable-cases page (no search), a callback request,
        legal updates with comments."""
        rng = random.Random(f"{self.seed}-lawfirm")
        site = self._offtopic4("www.harcourtlyle.test", "Harcourt & Lyle Solicitors", "lawfirm", "/", "s", "Search for:")
        site.menu = [
            ("Home", "/"),
            ("Our people", "/people/"),
            ("Notable cases", "/cases/"),
            ("Legal updates", "/updates/"),
            ("Contact", "/contact/"),
        ]
        site.footer = [("Complaints", "/complaints/"), ("Privacy", "/privacy/")]
        areas = TOPICS["caselaw"]["categories"][:8]
        people = []
        for i in range(14):
            nm = f"{rng.choice(['Sarah', 'David', 'Aisha', 'Tom', 'Grace', 'Owen'])} {rng.choice(['Lyle', 'Harcourt', 'Bamber', 'Osei', 'Reid', 'Doyle'])}"
            ar = rng.choice(areas)
            p = f"/people/{slug(nm)}-{i}/"
            people.append(Record(i, nm, "Harcourt & Lyle", ar, "Solicitor", "", f"{nm} {ar}".lower(), href=p))
            site.page(p, nm, f"<p>{E(nm)} advises on {E(ar.lower())} law.</p>", crumbs=[("Our people", "/people/"), (nm, p)])
        opts = '<option value="">Any area of law</option>' + "".join(f'<option value="{slug(a)}">{E(a)}</option>' for a in areas)
        site.actions["/people/search"] = Action(
            "search", "lawfirm", [("name", "text"), ("area", "category")], people, "/people/", "lawyer", "lawyers"
        )
        site.page(
            "/people/",
            "Our people",
            f'<form action="/people/search" method="get"><label>Name <input type="text" name="name"></label> '
            f'<label>Area of law <select name="area">{opts}</select></label> <input type="submit" value="Find a lawyer"></form>',
            forms=[("/people/search", "get", "search", "lawfirm")],
        )
        cl = TOPICS["caselaw"]
        cases = [f"{a} {b}" for a, b in zip(rng.sample(cl["title_a"], 6), rng.sample(cl["title_b"], 6), strict=True)]
        site.page(
            "/cases/",
            "Notable cases",
            "<p>Cases our team has won, with links to the judgments and the law reports:</p><ul>"
            + "".join(
                f"<li>{E(c)} [{rng.randrange(2015, 2026)}] {E(rng.choice(cl['creators']))}: a leading case on {E(rng.choice(areas).lower())}.</li>"
                for c in cases
            )
            + "</ul><p>Case law changes every week: read our legal updates for the latest judgments.</p>",
        )
        posts = []
        for i in range(10):
            title = f"{rng.choice(['What the', 'Why the', 'How the'])} {rng.choice(['Court of Appeal', 'Supreme Court', 'Employment Tribunal'])} {rng.choice(['ruling', 'judgment', 'decision'])} {rng.choice(['means for landlords', 'changes for employers', 'means for families', 'says about contracts'])}"
            p = f"/{2025 + i // 6}/{(i % 12) + 1:02d}/{slug(title)}/"
            posts.append((p, title))
            h, f = self._simple_form(site, p, "comment", rng)
            site.page(
                p,
                title,
                f"<p>{E(title)}. {E(rng.choice(cl['sentences']))}</p>{h}",
                crumbs=[("Legal updates", "/updates/"), (title, p)],
                forms=[f],
            )
        site.page("/updates/", "Legal updates", "<ul>" + "".join(f'<li><a href="{p}">{E(x)}</a></li>' for p, x in posts) + "</ul>")
        action = "/callback/request"
        site.actions[action] = Action("contact", "none")
        site.page(
            "/contact/",
            "Contact",
            f'<form action="{action}" method="post"><label>Name <input type="text" name="name"></label> <label>Phone <input type="tel" name="phone"></label> '
            f'<label>Area of law <select name="area">{opts}</select></label> <input type="submit" value="Request a callback"></form>',
            forms=[(action, "post", "contact", "none")],
        )
        for p, title in (("/complaints/", "Complaints"), ("/privacy/", "Privacy")):
            site.page(p, title, f"<p>{E(title)}.</p>")
        recs = [Record(i, x, "Harcourt & Lyle", "Post", "", "", x.lower(), href=p) for i, (p, x) in enumerate(posts)]
        site.actions["/"] = Action("search", "site:lawfirm", [("s", "text")], recs, "/", "post", "posts")
        site.page(
            "/",
            "Harcourt & Lyle Solicitors",
            '<p>Solicitors for families and businesses since 1952. <a href="/cases/">Our notable cases</a>.</p>',
        )

    def _tourism_site(self) -> None:
        """heldout10-12: a tourism site: a site search, a "what's on" search of events (no scored
        topic), a museums-and-galleries page describing collections (no search), an enquiry form."""
        rng = random.Random(f"{self.seed}-tourism")
        site = self._offtopic4("www.visiteastmoor.test", "Visit Eastmoor", "tourism", "/search", "q", "Search Visit Eastmoor")
        news_html, news_entry = self.newsletter(site, rng)
        site.footer_form = news_html
        site.layout_forms = site.layout_forms + [news_entry]
        site.menu = [
            ("Home", "/"),
            ("Things to do", "/things-to-do/"),
            ("What's on", "/whats-on/"),
            ("Museums and galleries", "/museums/"),
            ("Where to stay", "/stay/"),
            ("Plan your visit", "/plan/"),
        ]
        site.footer = [("About us", "/about"), ("Contact", "/contact")]
        kinds = ["Exhibitions", "Music", "Family", "Food and drink", "Walks and tours", "Theatre"]
        evs = []
        for i in range(30):
            title = f"{rng.choice(['Summer', 'Winter', 'Spring', 'Late'])} {rng.choice(['festival', 'exhibition', 'market', 'concert', 'guided walk', 'family day'])} {i + 1}"
            k = rng.choice(kinds)
            p = f"/whats-on/{slug(title)}/"
            evs.append(Record(i, title, "Eastmoor", k, "Event", "", f"{title} {k}".lower(), href=p))
            site.page(p, title, f"<p>{E(title)}: {E(k.lower())} in Eastmoor.</p>", crumbs=[("What's on", "/whats-on/"), (title, p)])
        opts = '<option value="">All events</option>' + "".join(f'<option value="{slug(k)}">{E(k)}</option>' for k in kinds)
        site.actions["/whats-on/results"] = Action(
            "search", "tourism", [("kw", "text"), ("type", "category")], evs, "/whats-on/", "event", "events"
        )
        site.page(
            "/whats-on/",
            "What's on",
            f'<form action="/whats-on/results" method="get"><label>Keyword <input type="text" name="kw"></label> <label>Type <select name="type">{opts}</select></label> '
            '<label>From <input type="date" name="from"></label> <input type="submit" value="Find events"></form><ul>'
            + "".join(f'<li><a href="{r.href}">{E(r.title)}</a></li>' for r in evs[:10])
            + "</ul>",
            forms=[("/whats-on/results", "get", "search", "tourism")],
        )
        mu = TOPICS["museums"]
        site.page(
            "/museums/",
            "Museums and galleries",
            "<p>Eastmoor's museums hold collections of paintings, ceramics, textiles, archaeology and natural history. "
            "Many museums now publish their collection catalogues online, so you can explore objects before you visit.</p><ul>"
            + "".join(f"<li>{E(n)}: {E(mu['tagline'].format(year=rng.randrange(1880, 1990)))}.</li>" for n, _h in mu["sites"][:5])
            + "</ul>",
        )
        action = "/plan/enquiry"
        site.actions[action] = Action("contact", "none")
        site.page(
            "/plan/",
            "Plan your visit",
            f'<form action="{action}" method="post"><label>Name <input type="text" name="name"></label> <label>Email <input type="email" name="email"></label> '
            '<label>Arriving <input type="date" name="arrive"></label> <label>Interests <select name="interest"><option>Museums</option><option>Walking</option>'
            '<option>Food</option></select></label> <input type="submit" value="Send enquiry"></form>',
            forms=[(action, "post", "contact", "none")],
        )
        for p, title in (("/things-to-do/", "Things to do"), ("/stay/", "Where to stay"), ("/about", "About us")):
            site.page(p, title, f"<p>{E(title)} in Eastmoor: beaches, moors, museums and markets.</p>")
        h, f = self._simple_form(site, "/contact", "contact", rng)
        site.page("/contact", "Contact", h, forms=[f])
        pages = [(r.href, r.title) for r in evs] + [("/museums/", "Museums and galleries"), ("/stay/", "Where to stay")]
        site.actions["/search"] = Action(
            "search",
            "tourism",
            [("q", "text")],
            [Record(100 + i, x, "Eastmoor", "Page", "", "", x.lower(), href=p) for i, (p, x) in enumerate(pages)],
            "/",
            "page",
            "pages",
        )
        site.page(
            "/",
            "Visit Eastmoor",
            '<p>Moors, beaches and museums. <a href="/whats-on/">What\'s on</a> &middot; <a href="/museums/">Museums</a>.</p>',
        )

    def _volunteer_site(self) -> None:
        """heldout13-15: a volunteer centre: a site search, a search of volunteering opportunities
        (records of roles, no scored topic), a funding-advice page that names funds and funders
        (no search), training events with a registration form, donations."""
        rng = random.Random(f"{self.seed}-volunteer")
        site = self._offtopic4(
            *self.renamed("www.northmoor-volunteers.test", "Northmoor Volunteer Centre"), "volunteering", "/search", "q", "Search"
        )
        news_html, news_entry = self.newsletter(site, rng)
        site.footer_form = news_html
        site.layout_forms = site.layout_forms + [news_entry]
        site.menu = [
            ("Home", "/"),
            ("Volunteer", "/opportunities/"),
            ("Support for groups", "/groups/"),
            ("Funding advice", "/groups/funding/"),
            ("Training and events", "/training/"),
            ("Donate", "/donate/"),
        ]
        site.footer = [("About us", "/about/"), ("Contact", "/contact/")]
        causes = ["Animals", "Arts", "Environment", "Older people", "Sport", "Young people", "Health", "Heritage"]
        roles = []
        for i in range(28):
            title = f"{rng.choice(['Volunteer', 'Trustee', 'Befriender', 'Driver', 'Shop assistant', 'Gardener', 'Treasurer'])} at {rng.choice(['Kelby', 'Northmoor', 'Otley', 'Eastmoor'])} {rng.choice(['Food Share', 'Museum', 'Hospice', 'Youth Club', 'Park Friends', 'Sports Club'])}"
            c = rng.choice(causes)
            p = f"/opportunities/{i + 1}-{slug(title)}"
            roles.append(Record(i, title, "Northmoor", c, "Volunteering", "", f"{title} {c}".lower(), href=p))
            site.page(
                p, title, f"<p>{E(title)}: {E(c.lower())}, a few hours a week.</p>", crumbs=[("Volunteer", "/opportunities/"), (title, p)]
            )
        opts = '<option value="">Any cause</option>' + "".join(f'<option value="{slug(c)}">{E(c)}</option>' for c in causes)
        site.actions["/opportunities/search"] = Action(
            "search", "volunteering", [("what", "text"), ("cause", "category")], roles, "/opportunities/", "opportunity", "opportunities"
        )
        site.page(
            "/opportunities/",
            "Find a volunteering opportunity",
            f'<form action="/opportunities/search" method="get"><label>What would you like to do? <input type="text" name="what"></label> '
            f'<label>Cause <select name="cause">{opts}</select></label> <input type="submit" value="Find opportunities"></form><ul>'
            + "".join(f'<li><a href="{r.href}">{E(r.title)}</a></li>' for r in roles[:10])
            + "</ul>",
            forms=[("/opportunities/search", "get", "search", "volunteering")],
        )
        gr = TOPICS["grants"]
        site.page(
            "/groups/",
            "Support for groups",
            '<p>We help charities and community groups with governance, volunteers and funding. <a href="/groups/funding/">Funding advice</a>.</p>',
        )
        site.page(
            "/groups/funding/",
            "Funding advice",
            "<p>Looking for a grant? Most funders open rounds once or twice a year. Funds our members have applied to lately:</p><ul>"
            + "".join(
                f"<li>{E(a)} {E(b)} ({E(rng.choice(gr['creators']))})</li>"
                for a, b in zip(rng.sample(gr["title_a"], 6), rng.sample(gr["title_b"], 6), strict=True)
            )
            + "</ul><p>Book a funding surgery with our advisers: they will read your grant application before you send it.</p>",
            crumbs=[("Support for groups", "/groups/"), ("Funding advice", "/groups/funding/")],
        )
        h, f = self._fresh5_form(site, "registration", rng)
        site.page("/training/", "Training and events", f"<p>Courses for trustees and volunteers.</p>{h}", forms=[f])
        h, f = self._fresh2_form(site, "donate", rng)
        site.page("/donate/", "Donate", f"<p>Help us support local volunteering.</p>{h}", forms=[f])
        h, f = self._simple_form(site, "/contact/", "contact", rng)
        site.page("/contact/", "Contact", h, forms=[f])
        site.page("/about/", "About us", "<p>The volunteer centre for Northmoor since 1974.</p>")
        pages = [(r.href, r.title) for r in roles] + [("/groups/funding/", "Funding advice"), ("/training/", "Training and events")]
        site.actions["/search"] = Action(
            "search",
            "volunteering",
            [("q", "text")],
            [Record(100 + i, x, "Northmoor", "Page", "", "", x.lower(), href=p) for i, (p, x) in enumerate(pages)],
            "/",
            "page",
            "pages",
        )
        site.page("/", site.name, '<p>Give a little time. <a href="/opportunities/">Find an opportunity</a>.</p>')

    def _neartopic_site(self) -> None:
        """heldout28-30: a site of the scored topic's world that is not a site of the topic: a
        fundraising platform (charities), a tutoring agency (schools), a walking-holiday company
        (walks). Its home page names the topic plainly; it has a site search in every page's
        header and a search of its own records (fundraising pages, tutors, holidays: searchable,
        not the topic), a page that names the topic and lists a few of the topic's records by
        name (no search of them), a form that is not a search, contact, newsletter."""
        spec = {**NEAR11, **NEAR12, **NEAR13, **NEAR14, **NEAR15, **NEAR16, **NEAR17}[self.topic]
        rng = random.Random(f"{self.seed}-near11")
        t = TOPICS[self.topic]
        site = self._offtopic4(spec["host"], spec["name"], spec["topic"], "/search", "q", "Search " + spec["name"])
        news_html, news_entry = self.newsletter(site, rng)
        site.footer_form = news_html
        site.layout_forms = site.layout_forms + [news_entry]
        base = spec["search_path"].rsplit("/", 1)[0] + "/"
        beside_label, beside_kind = spec["beside"]
        site.menu = [
            ("Home", "/"),
            (spec["search_title"], base),
            (spec["about_title"], spec["about_path"]),
            (beside_label, "/" + slug(beside_label) + "/"),
            ("How it works", "/how-it-works/"),
        ]
        site.footer = [("About us", "/about/"), ("Contact", "/contact/")]
        field, field_label = spec["field"]
        sel_label, options = spec["select"]
        firsts = ["Sam", "Priya", "Tom", "Aisha", "Gareth", "Lucy", "Kwame", "Hannah", "Joe", "Mei"]
        surnames = ["Dawson", "Patel", "Holroyd", "Khan", "Ainsley", "Brook", "Mensah", "Firth", "Walsh", "Chen"]
        places = ["Kelby", "Northmoor", "Eskby", "Ravensby", "Malham", "Whitby", "Settle", "Hebble Bridge"]
        recs = []
        for i in range(rng.choice([26, 32, 38])):
            opt = rng.choice(options)
            if self.topic == "charities":
                title = f"{rng.choice(firsts)} {rng.choice(surnames)}: {opt} for {rng.choice(t['title_a'])} {rng.choice(t['title_b'])}"
            elif self.topic == "schools":
                title = f"{rng.choice(firsts)} {rng.choice(surnames)}, {opt} tutor in {rng.choice(places)}"
            elif self.topic == "lyrics":
                title = f"{rng.choice(t['title_a'])} {rng.choice(t['title_b'])} (karaoke version, {opt})"
            elif self.topic == "archives":
                title = f"{rng.choice(firsts)} {rng.choice(surnames)}: {rng.choice(['The mills of', 'Workhouse life in', 'Enclosure and', 'Chapels of', 'Trams and buses of'])} {rng.choice(places)} ({opt})"
            elif self.topic == "sightings":
                title = f"{opt}, {rng.choice(['morning', 'afternoon', 'evening'])} sailing, {rng.randrange(1, 29)} {rng.choice(['May', 'June', 'July', 'August'])}"
            elif "titles" in spec:  # heldout34-36: the near-topic site's records carry the topic's own words
                title = rng.choice(spec["titles"]).format(place=rng.choice(places), opt=opt)
            else:
                title = f"{rng.choice([3, 4, 5, 6, 7])} nights: {rng.choice(['Dales', 'North York Moors', 'Coast to Coast', 'Ribble Valley', 'Eskby coast'])} {rng.choice(['inn to inn', 'centre-based', 'hut to hut', 'short break'])} ({opt.lower()})"
            p = f"{base}{i + 1}-{slug(title)}"
            recs.append(Record(i, title, spec["name"], opt, spec["noun"], "", f"{title} {opt} {spec['noun']}".lower(), href=p))
            site.page(p, title, f"<p>{E(title)}.</p>", crumbs=[(spec["search_title"], base), (title, p)])
        opts = '<option value="">Any</option>' + "".join(f'<option value="{slug(o)}">{E(o)}</option>' for o in options)
        site.actions[spec["search_path"]] = Action(
            "search", spec["topic"], [(field, "text"), ("opt", "category")], recs, base, spec["noun"], spec["plural"]
        )
        site.page(
            base,
            spec["search_title"],
            f'<form action="{spec["search_path"]}" method="get"><label>{E(field_label)} <input type="text" name="{field}"></label> '
            f'<label>{E(sel_label)} <select name="opt">{opts}</select></label> <input type="submit" value="{E(spec["search_title"])}"></form><ul>'
            + "".join(f'<li><a href="{r.href}">{E(r.title)}</a></li>' for r in recs[:12])
            + "</ul>",
            forms=[(spec["search_path"], "get", "search", spec["topic"])],
        )
        named = [f"{a} {b}" for a, b in zip(rng.sample(t["title_a"], 6), rng.sample(t["title_b"], 6), strict=True)]
        site.page(
            spec["about_path"],
            spec["about_title"],
            f"<p>{E(spec['about_text'])}</p><ul>"
            + "".join(f"<li>{E(n)} ({E(t['noun'])}, {E(rng.choice(t['creators']))})</li>" for n in named)
            + f"</ul><p>Looking for other {E(t['plural'])}? Every {E(t['noun'])} has its own page on the official {E(t['plural'])} registers and guides.</p>",
        )
        action = "/" + slug(beside_label) + "/send"
        site.actions[action] = Action(beside_kind, "none")
        site.page(
            "/" + slug(beside_label) + "/",
            beside_label,
            f'<form action="{action}" method="post"><label>Your name <input type="text" name="name"></label> '
            f'<label>Email <input type="email" name="email"></label> <label>{E(sel_label)} <select name="opt">{opts}</select></label> '
            f'<label>Message <textarea name="message" rows="4"></textarea></label> <input type="submit" value="Send"></form>',
            forms=[(action, "post", beside_kind, "none")],
        )
        h, f = self._simple_form(site, "/contact/", "contact", rng)
        site.page("/contact/", "Contact", h, forms=[f])
        site.page("/how-it-works/", "How it works", f"<p>{E(spec['tagline'])}</p>")
        site.page("/about/", "About us", f"<p>{E(spec['name'])} has been going since {rng.randrange(1995, 2020)}.</p>")
        pages = [(r.href, r.title) for r in recs] + [(spec["about_path"], spec["about_title"]), ("/how-it-works/", "How it works")]
        site.actions["/search"] = Action(
            "search",
            spec["topic"],
            [("q", "text")],
            [Record(100 + i, x, site.name, "Page", "", "", x.lower(), href=p) for i, (p, x) in enumerate(pages)],
            "/",
            "page",
            "pages",
        )
        site.page(
            "/",
            site.name,
            f'<p>{E(spec["tagline"])}</p><p><a href="{base}">{E(spec["search_title"])}</a> &middot; '
            f'<a href="{spec["about_path"]}">{E(spec["about_title"])}</a></p>',
        )

    def _tenants_site(self) -> None:
        """heldout13-15: a tenants' advice charity: a site search run by a hosted search service on
        its own sub-host, an advice-centre finder (records of offices), a rent checker (a
        calculator), renting advice full of lettings words, donations."""
        rng = random.Random(f"{self.seed}-tenants")
        host, name = self.renamed("www.fairrent-advice.test", "Fair Rent Advice")
        site = Site(self, host, name, "offtopic", "tenants")
        self.sites[host] = site
        site.menu = [
            ("Home", "/"),
            ("Renting advice", "/advice/"),
            ("Is my rent fair?", "/rent-check/"),
            ("Find local advice", "/local-advice/"),
            ("Donate", "/donate/"),
        ]
        site.footer = [("About", "/about/"), ("Contact", "/contact/")]
        self._hosted_site_search(site, rng)
        site.actions["/s/search.html"] = None  # the site's search is on the sub-host
        del site.actions["/s/search.html"]
        centres = []
        for i, town in enumerate(["Leeds", "York", "Bradford", "Harrogate", "Wakefield", "Hull"]):
            p = f"/local-advice/{slug(town)}"
            centres.append(Record(i, f"{town} advice centre", site.name, "Advice centre", "", "", f"{town} advice centre".lower(), href=p))
            site.page(p, f"{town} advice centre", f"<p>Drop-in advice for tenants in {E(town)}, Tuesdays and Thursdays.</p>")
        site.actions["/local-advice/find"] = Action(
            "search", "advice-centres", [("postcode", "text")], centres, "/local-advice/", "advice centre", "advice centres"
        )
        site.page(
            "/local-advice/",
            "Find local advice",
            '<form action="/local-advice/find" method="get"><label>Your postcode <input type="text" name="postcode"></label> '
            '<input type="submit" value="Find advice near me"></form><ul>'
            + "".join(f'<li><a href="{r.href}">{E(r.title)}</a></li>' for r in centres)
            + "</ul>",
            forms=[("/local-advice/find", "get", "search", "advice-centres")],
        )
        site.actions["/rent-check/result"] = Action("calculator", "none")
        site.page(
            "/rent-check/",
            "Is my rent fair?",
            '<form action="/rent-check/result" method="get"><label>Postcode <input type="text" name="postcode"></label> '
            '<label>Bedrooms <select name="beds"><option>1</option><option>2</option><option>3</option><option>4</option></select></label> '
            '<label>Rent per calendar month <input type="number" name="rent"></label> <input type="submit" value="Check my rent"></form>',
            forms=[("/rent-check/result", "get", "calculator", "none")],
        )
        rt = TOPICS["rentals"]
        topics = [
            "Deposits",
            "Repairs",
            "Eviction notices",
            "Rent increases",
            "Letting agent fees",
            "Viewing a property to rent",
            "Tenancy agreements",
        ]
        for x in topics:
            site.page(
                f"/advice/{slug(x)}",
                x,
                f"<p>{E(x)}: what tenants renting from a landlord or a letting agent should know. {E(rng.choice(rt['sentences']))}</p>",
                crumbs=[("Renting advice", "/advice/"), (x, f"/advice/{slug(x)}")],
            )
        site.page(
            "/advice/", "Renting advice", "<ul>" + "".join(f'<li><a href="/advice/{slug(x)}">{E(x)}</a></li>' for x in topics) + "</ul>"
        )
        h, f = self._fresh2_form(site, "donate", rng)
        site.page("/donate/", "Donate", f"<p>Every gift helps a tenant keep their home.</p>{h}", forms=[f])
        h, f = self._simple_form(site, "/contact/", "contact", rng)
        site.page("/contact/", "Ask an adviser", h, forms=[f])
        site.page("/about/", "About", "<p>Free, independent advice for people who rent their homes.</p>")
        site.page("/", site.name, '<p>Renting a flat or a house? <a href="/advice/">Know your rights</a>.</p>')

    def _consumer_site(self) -> None:
        """heldout13-15: a consumer magazine: a site search, a search of its product reviews
        (records of reviews, no scored topic), safety alerts naming recent recalls (no search), a
        price-comparison quote form, a competition."""
        rng = random.Random(f"{self.seed}-consumer")
        site = self._offtopic4(
            *self.renamed("www.consumerwatch-mag.test", "Consumer Watch"),
            "reviews",
            "/search",
            "q",
            "Search " + self.renamed("www.consumerwatch-mag.test", "Consumer Watch")[1],
        )
        news_html, news_entry = self.newsletter(site, rng)
        site.footer_form = news_html
        site.layout_forms = site.layout_forms + [news_entry]
        site.menu = [
            ("Home", "/"),
            ("Reviews", "/reviews/"),
            ("Safety alerts", "/safety/"),
            ("Compare prices", "/compare/"),
            ("Competitions", "/win/"),
        ]
        site.footer = [("About", "/about/"), ("Contact", "/contact/")]
        kinds = ["Washing machines", "Kettles", "Cots", "E-bikes", "Phones", "Vacuum cleaners", "Car seats", "Laptops"]
        revs = []
        for i in range(30):
            k = rng.choice(kinds)
            title = f"{rng.choice(['Homeline', 'Kiddo', 'VoltMax', 'Nestwell', 'Lumo'])} {rng.choice(['X2', 'Pro', 'Lite', '300', 'Max'])} {k[:-1].lower()}"
            p = f"/reviews/{i + 1}-{slug(title)}"
            revs.append(Record(i, title, site.name, k, "Review", "", f"{title} {k}".lower(), href=p))
            site.page(
                p,
                f"Review: {title}",
                f"<p>We tested the {E(title)}. Score {rng.randrange(40, 90)}%.</p>",
                crumbs=[("Reviews", "/reviews/"), (title, p)],
            )
        opts = '<option value="">All products</option>' + "".join(f'<option value="{slug(k)}">{E(k)}</option>' for k in kinds)
        site.actions["/reviews/search"] = Action(
            "search", "reviews", [("product", "text"), ("cat", "category")], revs, "/reviews/", "review", "reviews"
        )
        site.page(
            "/reviews/",
            "Product reviews",
            f'<form action="/reviews/search" method="get"><label>Product or brand <input type="text" name="product"></label> '
            f'<label>Category <select name="cat">{opts}</select></label> <input type="submit" value="Find reviews"></form><ul>'
            + "".join(f'<li><a href="{r.href}">{E(r.title)}</a></li>' for r in revs[:12])
            + "</ul>",
            forms=[("/reviews/search", "get", "search", "reviews")],
        )
        rc = TOPICS["recalls"]
        site.page(
            "/safety/",
            "Safety alerts",
            "<p>Products recalled this month: stop using them and contact the seller.</p><ul>"
            + "".join(
                f"<li>{E(a)}: {E(b)} ({E(rng.choice(rc['creators']))}, recall notice)</li>"
                for a, b in zip(rng.sample(rc["title_a"], 6), rng.sample(rc["title_b"], 6), strict=True)
            )
            + "</ul><p>Check every product recall on the official recall registers before you buy second hand.</p>",
        )
        site.actions["/compare/quotes"] = Action("quote", "none")
        site.page(
            "/compare/",
            "Compare prices",
            '<form action="/compare/quotes" method="get"><label>Postcode <input type="text" name="postcode"></label> '
            '<label>What <select name="what"><option>Energy</option><option>Broadband</option><option>Car insurance</option></select></label> '
            '<label>Monthly spend <input type="number" name="spend"></label> <input type="submit" value="Get quotes"></form>',
            forms=[("/compare/quotes", "get", "quote", "none")],
        )
        h, f = self._fresh2_form(site, "competition", rng)
        site.page("/win/", "Competitions", h, forms=[f])
        h, f = self._simple_form(site, "/contact/", "contact", rng)
        site.page("/contact/", "Contact", h, forms=[f])
        site.page("/about/", "About", "<p>Independent product testing since 1988.</p>")
        pages = [(r.href, r.title) for r in revs] + [("/safety/", "Safety alerts"), ("/compare/", "Compare prices")]
        site.actions["/search"] = Action(
            "search",
            "reviews",
            [("q", "text")],
            [Record(100 + i, x, site.name, "Page", "", "", x.lower(), href=p) for i, (p, x) in enumerate(pages)],
            "/",
            "page",
            "pages",
        )
        site.page(
            "/",
            site.name,
            '<p>Tested, rated, trusted. <a href="/reviews/">Latest reviews</a> &middot; <a href="/safety/">Safety alerts</a>.</p>',
        )

    def _library_site(self) -> None:
        """heldout8/9: a public library: a catalogue search of its books in every page's header
        (topic "library"), a local-studies page about family history and a business and IP
        centre page about patents, neither with a search; a computer booking and joining forms."""
        rng = random.Random(f"{self.seed}-library")
        host = "www.eastbury-libraries.test"
        site = Site(self, host, "Eastbury Libraries", "offtopic", "library")
        self.sites[host] = site
        books = TOPICS["books"]
        recs = self.records("books", 60, rng)
        for r in recs:
            r.href = f"/catalogue/record/{r.rid}"
        fopts = '<option value="">Any format</option>' + "".join(f'<option value="{slug(f)}">{E(f)}</option>' for f in books["formats"])
        site.header_form = (
            '<form action="/catalogue/search" method="get" class="opac"><label>Search the catalogue <input type="text" name="term"></label>'
            f'<select name="format" aria-label="Format">{fopts}</select><input type="submit" value="Search"></form>'
        )
        site.actions["/catalogue/search"] = Action(
            "search", "library", [("term", "text"), ("format", "format")], recs, "/catalogue/record/", "title", "titles"
        )
        news_html, news_entry = self.newsletter(site, rng)
        site.footer_form = news_html
        site.layout_forms = [("/catalogue/search", "get", "search", "library"), news_entry]
        site.menu = [
            ("Home", "/"),
            ("Catalogue", "/catalogue/"),
            ("Local studies", "/local-studies/"),
            ("Business & IP Centre", "/business/"),
            ("Use a computer", "/computers/"),
            ("Join the library", "/join/"),
            ("Contact", "/contact"),
        ]
        site.footer = [("Opening hours", "/hours"), ("Accessibility", "/accessibility"), ("Contact", "/contact")]
        for r in recs:
            site.page(
                r.href,
                r.title,
                f"<p>{E(r.title)} by {E(r.creator)}. {E(r.category)}, {E(r.fmt)}. Available at {rng.randrange(1, 5)} branches.</p>",
                crumbs=[("Catalogue", "/catalogue/"), (r.title, r.href)],
            )
        site.page(
            "/catalogue/",
            "Catalogue",
            "<p>Search the catalogue from the box at the top of every page. New titles:</p><ul>"
            + "".join(f'<li><a href="{r.href}">{E(r.title)}</a></li>' for r in recs[:12])
            + "</ul>",
            crumbs=[("Catalogue", "/catalogue/")],
        )
        site.page(
            "/local-studies/",
            "Local studies and family history",
            "<p>Tracing your family history? The local studies room holds parish registers on microfilm, census returns "
            "from 1841 to 1921, electoral rolls, trade directories and old newspapers. Library members can use genealogy "
            "websites free of charge on our computers, and volunteers from the family history society help on Tuesday "
            "afternoons. Ask at the desk for baptism, marriage and burial indexes.</p>",
            crumbs=[("Local studies", "/local-studies/")],
        )
        site.page(
            "/business/",
            "Business & IP Centre",
            "<p>Thinking of protecting an invention? Our Business &amp; IP Centre offers free workshops on patents, trade marks "
            "and designs, access to patent databases and market research reports, and one-to-one sessions with a patent "
            "attorney every month.</p>",
            crumbs=[("Business & IP Centre", "/business/")],
        )
        action = "/computers/book"
        site.actions[action] = Action("booking", "none")
        branches = "".join(f"<option>{b}</option>" for b in ("Central", "Northfield", "Harbour Road", "Millgate"))
        site.page(
            "/computers/",
            "Use a computer",
            f'<p>Book a computer for up to two hours a day.</p><form action="{action}" method="post"><label>Library card number '
            f'<input type="text" name="card"></label> <label>PIN <input type="password" name="pin"></label> <label>Branch '
            f'<select name="branch">{branches}</select></label> <label>Date <input type="date" name="date"></label> '
            '<input type="submit" value="Book a computer"></form>',
            forms=[(action, "post", "booking", "none")],
        )
        h, f = self._simple_form(site, "/join/", "register", rng)
        site.page(
            "/join/", "Join the library", f"<p>Membership is free for everyone who lives, works or studies in Eastbury.</p>{h}", forms=[f]
        )
        h, f = self._simple_form(site, "/contact", "contact", rng)
        site.page("/contact", "Contact", h, forms=[f])
        for p, title in (("/hours", "Opening hours"), ("/accessibility", "Accessibility")):
            site.page(p, title, f"<p>{E(title)}: all branches open Monday to Saturday.</p>")
        site.page(
            "/",
            "Eastbury Libraries",
            "<p>Borrow books, e-books and audiobooks, use a computer, research your family history or get help with a business idea.</p>"
            '<ul><li><a href="/local-studies/">Family history and local studies</a></li><li><a href="/business/">Patents and business help</a></li>'
            '<li><a href="/catalogue/">New in the catalogue</a></li></ul>',
        )

    def _university_site(self) -> None:
        """heldout8/9: a university: a site search in every page's header and a course finder
        (topic "university"), a technology-transfer page listing its patents and a short course in
        family history, neither with a search of the scored topics' records; an open-day booking."""
        rng = random.Random(f"{self.seed}-university")
        host = "www.northfield-uni.test"
        site = Site(self, host, "Northfield University", "offtopic", "university")
        self.sites[host] = site
        site.menu = [
            ("Home", "/"),
            ("Study", "/study/"),
            ("Research", "/research/"),
            ("Lifelong learning", "/lifelong-learning/"),
            ("News", "/news/"),
            ("Open days", "/open-days/"),
        ]
        site.footer = [("Contact", "/contact"), ("Jobs at Northfield", "/jobs"), ("Privacy", "/privacy")]
        site.header_form = (
            '<form action="/search" method="get" role="search"><input type="search" name="q" aria-label="Search Northfield" '
            'placeholder="Search Northfield"><button type="submit">Search</button></form>'
        )
        site.layout_forms = [("/search", "get", "search", "university")]
        courses = [
            ("Computer Science BSc", "Undergraduate"),
            ("History BA", "Undergraduate"),
            ("Mechanical Engineering MEng", "Undergraduate"),
            ("Nursing BSc", "Undergraduate"),
            ("Law LLB", "Undergraduate"),
            ("Intellectual Property Law LLM", "Postgraduate"),
            ("Data Science MSc", "Postgraduate"),
            ("Archives and Records Management MA", "Postgraduate"),
            ("Marine Biology MSc", "Postgraduate"),
            ("Family History: an introduction", "Short course"),
            ("Writing your life story", "Short course"),
            ("Bicycle maintenance for beginners", "Short course"),
            ("Patents for inventors", "Short course"),
            ("Sailing theory", "Short course"),
        ]
        recs = []
        for i, (c, level) in enumerate(courses):
            p = f"/study/courses/{slug(c)}"
            recs.append(
                Record(i, c, "Northfield University", level, "Full-time" if level != "Short course" else "Evenings", "", c.lower(), href=p)
            )
            site.page(
                p, c, f"<p>{E(c)} ({E(level)}). Apply through our online application system.</p>", crumbs=[("Study", "/study/"), (c, p)]
            )
        lopts = '<option value="">All levels</option>' + "".join(
            f'<option value="{slug(x)}">{x}</option>' for x in ("Undergraduate", "Postgraduate", "Short course")
        )
        site.actions["/study/course-finder/results"] = Action(
            "search", "university", [("kw", "text"), ("level", "category")], recs, "/study/courses/", "course", "courses"
        )
        site.page(
            "/study/",
            "Study at Northfield",
            '<h2>Course finder</h2><form action="/study/course-finder/results" method="get"><label>Subject or keyword <input type="text" name="kw"></label> '
            f'<label>Level <select name="level">{lopts}</select></label> <input type="submit" value="Find courses"></form>'
            + "<ul>"
            + "".join(f'<li><a href="{r.href}">{E(r.title)}</a></li>' for r in recs[:6])
            + "</ul>",
            crumbs=[("Study", "/study/")],
            forms=[("/study/course-finder/results", "get", "search", "university")],
        )
        pt = TOPICS["patents"]
        inventions = [f"{a} {b}" for a, b in zip(rng.sample(pt["title_a"], 6), rng.sample(pt["title_b"], 6), strict=True)]
        site.page(
            "/research/technology-transfer/",
            "Technology transfer: our patents",
            "<p>Northfield holds more than forty granted patents and pending applications. These inventions are available for licensing:</p><ul>"
            + "".join(f"<li>{E(x)} (patent granted {rng.randrange(2012, 2026)})</li>" for x in inventions)
            + '</ul><p>To discuss a licence, <a href="/contact">contact the technology transfer office</a>.</p>',
            crumbs=[("Research", "/research/"), ("Technology transfer", "/research/technology-transfer/")],
        )
        site.page(
            "/research/",
            "Research",
            '<p>Research at Northfield: <a href="/research/technology-transfer/">technology transfer and patents</a>, '
            "marine science, digital humanities and local history.</p>",
            crumbs=[("Research", "/research/")],
        )
        site.page(
            "/lifelong-learning/",
            "Lifelong learning",
            '<p>Evening and weekend short courses for adults. This term: <a href="/lifelong-learning/family-history/">Family history: '
            "an introduction</a>, creative writing, sailing theory.</p>",
            crumbs=[("Lifelong learning", "/lifelong-learning/")],
        )
        site.page(
            "/lifelong-learning/family-history/",
            "Family history: an introduction",
            "<p>Learn to trace your ancestors: parish registers, census returns, wills and military records, and how to use "
            "genealogy websites and record offices. Ten Tuesday evenings in the university library.</p>",
            crumbs=[("Lifelong learning", "/lifelong-learning/"), ("Family history", "/lifelong-learning/family-history/")],
        )
        posts = []
        for i in range(6):
            title = rng.choice(
                [
                    "Northfield spin-out wins award",
                    "New marine lab opens",
                    "Students help index parish records",
                    "Open day record attendance",
                    "Professor elected fellow",
                    "Library refurbishment complete",
                ]
            )
            p = f"/news/2026/{i + 1:02d}/{slug(title)}"
            posts.append((p, title))
            site.page(p, title, f"<p>{E(title)}. Read more in the university magazine.</p>", crumbs=[("News", "/news/"), (title, p)])
        site.page(
            "/news/",
            "News",
            "<ul>" + "".join(f'<li><a href="{p}">{E(t)}</a></li>' for p, t in posts) + "</ul>",
            crumbs=[("News", "/news/")],
        )
        action = "/open-days/book"
        site.actions[action] = Action("booking", "none")
        site.page(
            "/open-days/",
            "Open days",
            f'<form action="{action}" method="post"><label>Name <input type="text" name="name"></label> <label>Email <input type="email" name="email"></label> '
            '<label>Date <select name="day"><option>Saturday 13 June</option><option>Saturday 19 September</option></select></label> '
            '<label>Subject of interest <input type="text" name="subject"></label> <input type="submit" value="Book your place"></form>',
            forms=[(action, "post", "booking", "none")],
        )
        h, f = self._simple_form(site, "/contact", "contact", rng)
        site.page("/contact", "Contact", h, forms=[f])
        for p, title in (("/jobs", "Jobs at Northfield"), ("/privacy", "Privacy")):
            site.page(p, title, f"<p>{E(title)}.</p>")
        pages = (
            [(p, t) for p, t in posts]
            + [(p, t) for t, p in site.menu[1:]]
            + [("/research/technology-transfer/", "Technology transfer: our patents")]
        )
        srecs = [Record(100 + i, t, "Northfield", "Page", "", "", t.lower(), href=p) for i, (p, t) in enumerate(pages)]
        site.actions["/search"] = Action("search", "university", [("q", "text")], srecs, "/", "page", "pages")
        site.page(
            "/",
            "Northfield University",
            '<p>A university by the sea. <a href="/study/">Find a course</a>, <a href="/research/">our research</a>, '
            '<a href="/open-days/">come to an open day</a>.</p>',
        )

    def _item_page(self, site: Site, r: Record, cart_action: str, hub_name: str, hub_path: str, cat_prefix: str) -> str:
        t = TOPICS[site.topic]
        path = f"{site.item_prefix}{r.rid}"
        if site.pages.get(path):
            return site.pages[path]
        qty = "".join(f"<option>{i}</option>" for i in range(1, 6))
        item_form = getattr(site, "item_form", None)  # heldout6's hotels: a booking request instead of a cart
        body = (
            f'<table class="details"><tr><th>{t["creator_label"]}</th><td>{E(r.creator)}</td></tr>'
            f'<tr><th>Category</th><td><a href="{cat_prefix}{slug(r.category)}/">{E(r.category)}</a></td></tr>'
            f"<tr><th>Format</th><td>{E(r.fmt)}</td></tr><tr><th>Price</th><td>{E(r.price)}</td></tr>"
            f"<tr><th>{t['id_label']}</th><td>{E(r.extra.split()[-1])}</td></tr></table>"
        ) + (
            item_form[1]
            if item_form
            else f'<form action="{cart_action}" method="post"><input type="hidden" name="item" value="{r.rid}">'
            f'<label>Qty <select name="qty">{qty}</select></label><input type="submit" value="Add to cart"></form>'
        )
        same = [o for o in site.records if o.category == r.category and o is not r]
        k = site.records.index(r)
        related = [same[(k + j) % len(same)] for j in range(min(4, len(same)))] if same else []
        body += (
            "<h3>You may also like</h3><ul>"
            + "".join(f'<li><a href="{site.item_prefix}{o.rid}">{E(o.title)}</a></li>' for o in related)
            + "</ul>"
        )
        site.page(
            path,
            r.title,
            body,
            crumbs=[(hub_name, hub_path), (r.category, f"{cat_prefix}{slug(r.category)}/"), (r.title, path)],
            forms=[(item_form[0], "post", "booking", "none")] if item_form else [(cart_action, "post", "cart", "none")],
        )
        return site.pages[path]

    def _topic_blog(self, topic: str, name: str, host: str, about: str) -> None:
        rng = random.Random(f"{self.seed}-{host}")
        t = TOPICS[topic]
        site = Site(self, host, name, "topic-blog", topic)
        self.sites[host] = site
        site.menu = [("Home", "/"), ("Reviews", "/reviews/"), ("About", "/about"), ("Write for us", "/submit-review")]
        site.footer = [("About", "/about"), ("Blogroll", "/links")]
        news_html, news_entry = self.newsletter(site, rng)
        site.footer_form = news_html
        site.layout_forms = [news_entry]
        recs = self.records(topic, 12, rng)
        posts = []
        for i, r in enumerate(recs):
            p = f"/{2024 + i // 6}/{(i % 12) + 1:02d}/{slug(r.title)}/"
            posts.append((p, r))
            h, f = self._simple_form(site, p, "comment", rng)
            site.page(
                p,
                f"Review: {r.title}",
                f"<p>{E(r.title)} by {E(r.creator)} ({E(r.category)}, {E(r.fmt)}). "
                f"{E(' '.join(rng.sample(t['sentences'], 2)))}</p><p>Rating: {rng.randrange(2, 6)}/5</p>{h}",
                crumbs=[("Reviews", "/reviews/"), (r.title, p)],
                forms=[f],
            )
        site.page(
            "/",
            name,
            f"<p>{E(about.capitalize())}.</p><ul>" + "".join(f'<li><a href="{p}">{E(r.title)}</a></li>' for p, r in posts[:6]) + "</ul>",
        )
        site.page("/reviews/", "All reviews", "<ul>" + "".join(f'<li><a href="{p}">{E(r.title)}</a></li>' for p, r in posts) + "</ul>")
        site.page("/about", "About", f"<p>{E(name)}: {E(about)} by readers, for readers.</p>")
        # a review submission form: topic fields, not a search
        action = "/submit-review/send"
        site.actions[action] = Action("submission", topic)
        tf = t["text_fields"]
        form = (
            f'<form action="{action}" method="post"><label>{E(tf[0][1])} <input type="text" name="{tf[0][0]}"></label> '
            f'<label>{E(tf[1][1])} <input type="text" name="{tf[1][0]}"></label> '
            f'<label>Rating <select name="rating"><option>5</option><option>4</option><option>3</option><option>2</option><option>1</option></select></label> '
            f'<label>Your review <textarea name="review"></textarea></label><input type="submit" value="Submit review"></form>'
        )
        site.page("/submit-review", "Write for us", f"<p>Send us your review.</p>{form}", forms=[(action, "post", "submission", topic)])
        site.link_slots = "/links"

    # ------------------------------------------------------------------ off-topic sites
    def _docs_site(self) -> None:
        rng = random.Random(f"{self.seed}-docs")
        host, name = self.renamed("docs.lumen-lang.test", "Lumen 3.2 documentation")
        site = Site(self, host, name, "offtopic", "docs")
        self.sites[host] = site
        form = (
            '<form class="search" action="/search.html" method="get"><input type="text" name="q" aria-label="Quick search">'
            '<input type="submit" value="Go"><input type="hidden" name="check_keywords" value="yes">'
            '<input type="hidden" name="area" value="default"></form>'
        )
        site.header_form = form
        site.layout_forms = [("/search.html", "get", "search", "docs")]
        words = (
            "function module record catalog job queue scheduler book chapter listing index search query "
            "result type iterator stream buffer thread worker pool format string parser flight request "
            "recipe build package install title author genre price range movie player track album"
        ).split()
        chapters = []
        for _ in range(1, 61):
            w = rng.sample(words, 3)
            title = f"{w[0].capitalize()} {w[1]}s and {w[2]}s"
            chapters.append((f"/library/{slug(title)}.html", title, w))
        site.menu = [
            ("Index", "/"),
            ("Tutorial", "/tutorial/"),
            ("Library reference", "/library/"),
            ("The Lumen Book", "/book/"),
            ("Search", "/search.html"),
            ("Packages", "/packages/"),
        ]
        site.footer = [("Copyright", "/copyright.html"), ("Report a bug", "/bugs.html")]
        docs_records = [Record(i, t, "Lumen team", "Library", "HTML", "", " ".join(w), href=p) for i, (p, t, w) in enumerate(chapters)]
        site.actions["/search.html"] = Action("search", "docs", [("q", "text")], docs_records, "/library/r", "page", "pages")
        for p, title, _words in chapters:
            body = "".join(
                f"<p>The <code>{a}</code> {b} returns a {c} of {d} values; see the {e} module.</p>"
                for a, b, c, d, e in (rng.sample(words, 5) for _ in range(4))
            )
            site.page(p, title, body, crumbs=[("Library reference", "/library/"), (title, p)])
        site.page(
            "/library/", "Library reference", "<ul>" + "".join(f'<li><a href="{p}">{E(t)}</a></li>' for p, t, _ in chapters) + "</ul>"
        )
        book = []
        for i in range(1, 21):
            p = f"/book/ch{i:02d}.html"
            book.append(p)
            site.page(
                p,
                f"The Lumen Book, chapter {i}",
                f"<p>In this chapter of the book we write a {rng.choice(words)} "
                f"for {rng.choice(words)}s. Readers of the book should know {rng.choice(words)}s.</p>"
                f'<p><a href="/book/ch{i + 1:02d}.html">Next chapter</a></p>',
                crumbs=[("The Lumen Book", "/book/"), (f"Chapter {i}", p)],
            )
        site.page(
            "/book/",
            "The Lumen Book",
            "<ul>" + "".join(f'<li><a href="{p}">Chapter {i + 1}</a></li>' for i, p in enumerate(book)) + "</ul>",
        )
        tut = [f"/tutorial/{i}.html" for i in range(1, 11)]
        for i, p in enumerate(tut):
            site.page(p, f"Tutorial part {i + 1}", f"<p>We build a small {rng.choice(words)} catalog with {rng.choice(words)} records.</p>")
        site.page(
            "/tutorial/", "Tutorial", "<ul>" + "".join(f'<li><a href="{p}">Part {i + 1}</a></li>' for i, p in enumerate(tut)) + "</ul>"
        )
        pkg = (
            '<form action="/packages/search" method="get"><label>Search packages <input type="text" name="q" placeholder="package name"></label>'
            '<label>Category <select name="category"><option value="">All</option><option>Web</option><option>Database</option>'
            "<option>Jobs &amp; scheduling</option><option>Media (movies, music)</option><option>Text &amp; books</option></select></label>"
            '<input type="submit" value="Search"></form>'
        )
        site.actions["/packages/search"] = Action("search", "docs", [("q", "text"), ("category", "other")], docs_records, "/library/r")
        site.page(
            "/packages/", "Package index", f"<p>Find third-party packages.</p>{pkg}", forms=[("/packages/search", "get", "search", "docs")]
        )
        site.page("/search.html", "Search", "<p>Enter your search words into the box above.</p>")
        site.page("/copyright.html", "Copyright", "<p>Copyright the Lumen developers.</p>")
        site.page("/bugs.html", "Dealing with bugs", "<p>Report bugs on the tracker.</p>")
        site.page(
            "/",
            "Lumen 3.2 documentation",
            "<p>Welcome! This is the documentation for Lumen 3.2.</p><ul>"
            '<li><a href="/tutorial/">Tutorial</a></li><li><a href="/library/">Library reference</a></li>'
            '<li><a href="/book/">The Lumen Book</a></li><li><a href="/packages/">Package index</a></li></ul>',
        )

    def _news_site(self) -> None:
        rng = random.Random(f"{self.seed}-news")
        host, name = self.renamed("www.dailyledger.test", "The Daily Ledger")
        site = Site(self, host, name, "offtopic", "news")
        self.sites[host] = site
        sections = [
            ("Local", "local"),
            ("Business", "business"),
            ("Sports", "sports"),
            ("Arts & Books", "books"),
            ("Movies & TV", "movies"),
            ("Travel", "travel"),
            ("Cars", "cars"),
            ("Real Estate", "realestate"),
            ("Jobs & Careers", "careers"),
            ("Food", "food"),
        ]
        opts = "".join(f'<option value="{s}">{E(n)}</option>' for n, s in sections)
        site.header_form = (
            f'<form action="/search" method="get"><input type="text" name="q" placeholder="Search the Ledger">'
            f'<select name="section"><option value="">All sections</option>{opts}</select>'
            f'<button type="submit">Search</button></form>'
        )
        site.robots = "User-agent: *\nDisallow: /search\nDisallow: /account/\n"
        news_html, news_entry = self.newsletter(site, rng)
        site.footer_form = news_html
        site.layout_forms = [("/search", "get", "search", "news"), news_entry]
        site.menu = [("Home", "/")] + [(n, f"/{s}/") for n, s in sections] + [("Subscribe", "/login")]
        site.footer = [("About", "/about"), ("Contact", "/contact"), ("Archive", "/archive/")]
        recs = []
        topic_words = {
            s: TOPICS[k]
            for s, k in [
                ("books", "books"),
                ("movies", "movies"),
                ("careers", "jobs"),
                ("cars", "autos"),
                ("realestate", "realestate"),
                ("travel", "airfare"),
                ("food", "recipes"),
            ]
        }
        all_paths = []
        for name, sec in sections:
            paths = []
            for i in range(12):
                if sec in topic_words:
                    t = topic_words[sec]
                    title = f"{rng.choice(t['title_a'])} {rng.choice(t['title_b'])}: {rng.choice(['what to know', 'a review', 'the season ahead', 'readers respond'])}"
                    text = " ".join(rng.sample(t["sentences"], 2))
                else:
                    title = f"{rng.choice(['Council', 'Market', 'Team', 'Mayor', 'School board', 'Storm'])} {rng.choice(['votes', 'rallies', 'wins', 'delays', 'plans', 'returns'])} {rng.choice(['again', 'on budget', 'in overtime', 'this week'])}"
                    text = "Officials said more details would follow later this week."
                p = f"/{sec}/{2026}/{rng.randrange(1, 12):02d}/{slug(title)}-{i}.html"
                paths.append((p, title))
                recs.append(Record(len(recs), title, "Staff", name, "Article", "", text, href=p))
                h, f = self._simple_form(site, p, "comment", rng)
                site.page(p, title, f"<p>{E(text)}</p><p>{E(text)}</p>{h}", crumbs=[(name, f"/{sec}/"), (title, p)], forms=[f])
            all_paths += paths
            site.page(
                f"/{sec}/",
                name,
                "<ul>" + "".join(f'<li><a href="{p}">{E(t)}</a></li>' for p, t in paths) + "</ul>",
                crumbs=[(name, f"/{sec}/")],
            )
        site.actions["/search"] = Action("search", "news", [("q", "text"), ("section", "other")], recs, "/archive/a", "article", "articles")
        site.page(
            "/",
            "The Daily Ledger",
            "<h2>Top stories</h2><ul>" + "".join(f'<li><a href="{p}">{E(t)}</a></li>' for p, t in rng.sample(all_paths, 15)) + "</ul>",
        )
        site.page("/archive/", "Archive", "<ul>" + "".join(f'<li><a href="/{s}/">{E(n)}</a></li>' for n, s in sections) + "</ul>")
        site.page("/about", "About the Ledger", "<p>An independent daily since 1921.</p>")
        h, f = self._simple_form(site, "/contact", "contact", rng)
        site.page("/contact", "Contact the newsroom", h, forms=[f])
        h, f = self._simple_form(site, "/login", "login", rng)
        site.page("/login", "Subscriber login", h, forms=[f])

    def _store_site(self) -> None:
        rng = random.Random(f"{self.seed}-store")
        host, name = self.renamed("www.ironworks-supply.test", "Ironworks Supply Co.")
        site = Site(self, host, name, "offtopic", "hardware")
        self.sites[host] = site
        cats = ["Power tools", "Hand tools", "Garden", "Plumbing", "Electrical", "Paint"]
        opts = "".join(f'<option value="{slug(c)}">{E(c)}</option>' for c in cats)
        form = (
            f'<form action="/products/search" method="get"><fieldset><legend>Find products</legend>'
            f'<label>Keywords <input type="text" name="keywords" placeholder="Search 20,000 products"></label>'
            f'<label>Department <select name="dept"><option value="">All departments</option>{opts}</select></label>'
            f'<label>Price <select name="price"><option value="">Any price</option><option>Under $25</option><option>$25 - $100</option><option>Over $100</option></select></label>'
            f'<label><input type="checkbox" name="instock" value="1"> In stock only</label>'
            f'<input type="hidden" name="store" value="12"><input type="submit" value="Search"></fieldset></form>'
        )
        news_html, news_entry = self.newsletter(site, rng)
        site.footer_form = news_html
        site.layout_forms = [news_entry]
        site.menu = [("Home", "/"), ("Departments", "/departments/"), ("Product search", "/products/find"), ("Account", "/login")]
        site.footer = [("About", "/about"), ("Contact", "/contact"), ("Cart", "/cart")]
        recs = []
        for c in cats:
            items = []
            for _i in range(8):
                title = f"{rng.choice(['Pro', 'Heavy-duty', 'Compact', 'Cordless', 'Steel', 'Classic'])} {rng.choice(['drill', 'hammer', 'hose', 'wrench', 'saw', 'ladder', 'roller', 'pliers'])} {rng.randrange(100, 999)}"
                rec = Record(2000 + len(recs), title, "Ironworks", c, "Each", "Under $25", "tool hardware")
                recs.append(rec)
                items.append(rec)
                site.page(f"/products/{rec.rid}", title, f"<p>{E(title)} in {E(c)}.</p>")
            site.page(
                f"/departments/{slug(c)}/",
                c,
                "<ul>" + "".join(f'<li><a href="/products/{r.rid}">{E(r.title)}</a></li>' for r in items) + "</ul>",
                crumbs=[("Departments", "/departments/"), (c, f"/departments/{slug(c)}/")],
            )
        site.actions["/products/search"] = Action(
            "search",
            "hardware",
            [("keywords", "text"), ("dept", "category"), ("price", "other")],
            recs,
            "/products/",
            "product",
            "products",
        )
        site.page("/products/find", "Product search", form, forms=[("/products/search", "get", "search", "hardware")])
        site.page(
            "/departments/",
            "Departments",
            "<ul>" + "".join(f'<li><a href="/departments/{slug(c)}/">{E(c)}</a></li>' for c in cats) + "</ul>",
        )
        site.page(
            "/",
            "Ironworks Supply Co.",
            '<p>Tools, hardware and garden supplies for pros and homeowners.</p><p><a href="/departments/">Shop all departments</a></p>',
        )
        site.page("/about", "About", "<p>Family owned since 1962.</p>")
        h, f = self._simple_form(site, "/contact", "contact", rng)
        site.page("/contact", "Contact", h, forms=[f])
        h, f = self._simple_form(site, "/login", "login", rng)
        site.page("/login", "Account", h, forms=[f])
        h, f = self._simple_form(site, "/cart", "checkout", rng)
        site.page("/cart", "Cart", h, forms=[f])

    def _forum_site(self) -> None:
        rng = random.Random(f"{self.seed}-forum")
        host, name = self.renamed("forum.backyardgrowers.test", "Backyard Growers Forum")
        site = Site(self, host, name, "offtopic", "gardening")
        self.sites[host] = site
        site.menu = [("Forums", "/"), ("Search", "/search.php"), ("Login", "/ucp.php?mode=login"), ("Register", "/ucp.php?mode=register")]
        site.footer = [("Rules", "/rules"), ("Contact", "/contact")]
        boards = ["Vegetables", "Fruit trees", "Pests & diseases", "Tools", "Seed swap", "Recipes from the garden"]
        recs = []
        for b in boards:
            threads = []
            for _i in range(6):
                title = f"{rng.choice(['Help with', 'My', 'Best', 'Problem with', 'Photos of'])} {rng.choice(['tomatoes', 'apple tree', 'aphids', 'raised beds', 'compost', 'zucchini', 'seed catalog'])}"
                tid = 100 + len(recs)
                recs.append(Record(tid, title, "member", b, "Thread", "", "garden"))
                threads.append((tid, title))
                h = (
                    '<form action="/posting.php" method="post"><input type="hidden" name="mode" value="reply">'
                    f'<input type="hidden" name="t" value="{tid}"><textarea name="message"></textarea><input type="submit" value="Post reply"></form>'
                )
                site.actions["/posting.php"] = Action("comment", "none")
                site.page(
                    f"/viewtopic.php?t={tid}",
                    title,
                    f"<p>{E(title)}? Any advice welcome.</p>{h}",
                    forms=[("/posting.php", "post", "comment", "none")],
                )
            site.page(
                f"/viewforum.php?f={slug(b)}",
                b,
                "<ul>" + "".join(f'<li><a href="/viewtopic.php?t={t}">{E(n)}</a></li>' for t, n in threads) + "</ul>",
            )
        form = (
            '<form action="/search.php" method="get"><input type="hidden" name="do" value="search">'
            '<label>Search for keywords <input type="text" name="keywords"></label>'
            '<label>Search by author <input type="text" name="author"></label>'
            '<label>Forum <select name="fid"><option value="">All forums</option>'
            + "".join(f"<option>{E(b)}</option>" for b in boards)
            + '</select></label><input type="submit" value="Search"></form>'
        )
        site.actions["/search.php"] = Action(
            "search", "gardening", [("keywords", "text"), ("author", "text")], recs, "/viewtopic.php?t=", "post", "posts"
        )
        site.page(
            "/",
            "Backyard Growers Forum",
            "<ul>" + "".join(f'<li><a href="/viewforum.php?f={slug(b)}">{E(b)}</a></li>' for b in boards) + "</ul>",
        )
        site.page("/search.php", "Search", form, forms=[("/search.php", "get", "search", "gardening")])
        h, f = self._simple_form(site, "/ucp.php?mode=login", "login", rng)
        site.page("/ucp.php?mode=login", "Login", h, forms=[f])
        h, f = self._simple_form(site, "/ucp.php?mode=register", "register", rng)
        site.page("/ucp.php?mode=register", "Register", h, forms=[f])
        site.page("/rules", "Forum rules", "<p>Be kind. No advertising.</p>")
        h, f = self._simple_form(site, "/contact", "contact", rng)
        site.page("/contact", "Contact", h, forms=[f])

    def _weather_site(self) -> None:
        rng = random.Random(f"{self.seed}-weather")
        host, name = self.renamed("www.metroweather.test", "Metro Weather")
        site = Site(self, host, name, "offtopic", "weather")
        self.sites[host] = site
        site.header_form = (
            '<form action="/forecast" method="get"><input type="text" name="loc" placeholder="City or ZIP code">'
            '<input type="submit" value="Get forecast"></form>'
        )
        site.layout_forms = [("/forecast", "get", "search", "weather")]
        cities = ["Boston", "Denver", "Chicago", "Seattle", "Miami", "Atlanta", "Dallas", "Phoenix", "Portland", "Austin"]
        recs = [Record(i, f"{c} forecast", "Metro Weather", "Forecast", "Daily", "", c) for i, c in enumerate(cities)]
        site.actions["/forecast"] = Action("search", "weather", [("loc", "text")], recs, "/city/", "forecast", "forecasts")
        site.menu = [("Home", "/"), ("Radar", "/radar"), ("Cities", "/cities/")]
        site.footer = [("About", "/about")]
        for i, c in enumerate(cities):
            site.page(
                f"/city/{i}",
                f"{c} weather",
                f"<p>{c}: {rng.randrange(20, 90)}&deg;F, {rng.choice(['sunny', 'rain', 'cloudy', 'snow'])}.</p>",
            )
        site.page("/cities/", "Cities", "<ul>" + "".join(f'<li><a href="/city/{i}">{c}</a></li>' for i, c in enumerate(cities)) + "</ul>")
        site.page("/", "Metro Weather", "<p>Local forecasts, radar and travel weather for flights and road trips.</p>")
        site.page("/radar", "Radar", "<p>Radar loop.</p>")
        site.page("/about", "About", "<p>Forecasts since 1999.</p>")

    def _council_site(self) -> None:
        """heldout6/7: a city council: a site search (disallowed by robots.txt), a planning
        applications search (records, but of no topic scored), a bin-day lookup and a payment."""
        rng = random.Random(f"{self.seed}-council")
        host = "www.harbourcity-council.test"
        site = Site(self, host, "Harbour City Council", "offtopic", "council")
        self.sites[host] = site
        site.robots = "User-agent: *\nDisallow: /search\n"
        site.header_form = (
            '<form action="/search" method="get" role="search"><label for="cs">Search this site</label>'
            '<input type="search" id="cs" name="q" placeholder="e.g. bins, parking, libraries"><button type="submit">Search</button></form>'
        )
        site.menu = [
            ("Home", "/"),
            ("Bins and recycling", "/bins/"),
            ("Planning", "/planning/"),
            ("Libraries", "/libraries/"),
            ("Parking", "/parking/"),
            ("Council tax", "/council-tax/"),
            ("News", "/news/"),
            ("Contact us", "/contact"),
        ]
        site.footer = [("Accessibility", "/accessibility"), ("Privacy", "/privacy"), ("Contact us", "/contact")]
        site.layout_forms = [("/search", "get", "search", "council")]
        pages = []
        for i in range(18):
            title = f"{rng.choice(['Changes to', 'Consultation on', 'New', 'Update on', 'Have your say on'])} {rng.choice(['bin collections', 'parking permits', 'library hours', 'the local plan', 'street lighting', 'school admissions', 'park cafes', 'the market square'])}"
            p = f"/news/{2026}-{rng.randrange(1, 12):02d}-{slug(title)}-{i}"
            pages.append((p, title))
            site.page(
                p,
                title,
                f"<p>{E(title)}: the council has published details. Residents can comment until the end of the month.</p>",
                crumbs=[("News", "/news/"), (title, p)],
            )
        site.page(
            "/news/",
            "News",
            "<ul>" + "".join(f'<li><a href="{p}">{E(t)}</a></li>' for p, t in pages) + "</ul>",
            crumbs=[("News", "/news/")],
        )
        wards = ["Harbourside", "Old Town", "Northgate", "Westfield", "Millbrook", "Castle"]
        apps = []
        for i in range(30):
            ward = rng.choice(wards)
            desc = f"{rng.choice(['Single-storey rear extension', 'Change of use to hotel', 'Loft conversion', 'Erection of 4 dwellings', 'Replacement shopfront', 'Felling of one oak tree'])} at {rng.randrange(1, 200)} {rng.choice(['High Street', 'Quay Road', 'Mill Lane', 'Church Street'])}"
            ref = f"26/{i + 100:05d}/FUL"
            p = f"/planning/application/{i + 100}"
            apps.append(
                Record(i, desc, ref, ward, rng.choice(["Pending", "Approved", "Refused"]), "", f"{desc} {ref} {ward}".lower(), href=p)
            )
            site.page(p, f"Application {ref}", f"<p>{E(desc)}. Ward: {E(ward)}.</p>", crumbs=[("Planning", "/planning/"), (ref, p)])
        wopts = '<option value="">All wards</option>' + "".join(f'<option value="{slug(w)}">{E(w)}</option>' for w in wards)
        site.page(
            "/planning/",
            "Planning",
            '<p>View and comment on planning applications.</p><h2>Find a planning application</h2><form action="/planning/applications" method="get">'
            '<label>Reference <input type="text" name="ref"></label> <label>Address or keyword <input type="text" name="addr"></label> '
            f'<label>Ward <select name="ward">{wopts}</select></label> <label>Decision <select name="decision"><option value="">Any</option>'
            '<option>Pending</option><option>Approved</option><option>Refused</option></select></label> <input type="submit" value="Find applications"></form>'
            '<p><a href="/planning/application/100">Latest application</a></p>',
            crumbs=[("Planning", "/planning/")],
            forms=[("/planning/applications", "get", "search", "planning")],
        )
        site.actions["/planning/applications"] = Action(
            "search",
            "planning",
            [("ref", "text"), ("addr", "text"), ("ward", "category")],
            apps,
            "/planning/application/",
            "application",
            "applications",
        )
        bins = '<form action="/bins/lookup" method="get"><label>Postcode <input type="text" name="postcode"></label> <input type="submit" value="Find my bin day"></form>'
        site.actions["/bins/lookup"] = Action("status", "none")
        site.page(
            "/bins/",
            "Bins and recycling",
            f"<p>Find your collection day.</p>{bins}",
            crumbs=[("Bins and recycling", "/bins/")],
            forms=[("/bins/lookup", "get", "status", "none")],
        )
        h, f = self._fresh2_form(site, "payment", rng)
        site.page(
            "/parking/", "Parking", f"<p>Permits, car parks and penalty notices.</p>{h}", crumbs=[("Parking", "/parking/")], forms=[f]
        )
        branches = ["Central Library", "Northgate Library", "Millbrook Library", "Harbourside Library"]
        for b in branches:
            site.page(
                f"/libraries/{slug(b)}",
                b,
                f"<p>{E(b)} is open Monday to Saturday. Borrow books, films and audiobooks; free wifi.</p>",
                crumbs=[("Libraries", "/libraries/"), (b, f"/libraries/{slug(b)}")],
            )
        site.page(
            "/libraries/",
            "Libraries",
            "<ul>" + "".join(f'<li><a href="/libraries/{slug(b)}">{E(b)}</a></li>' for b in branches) + "</ul>",
            crumbs=[("Libraries", "/libraries/")],
        )
        for p, title in (("/council-tax/", "Council tax"), ("/accessibility", "Accessibility"), ("/privacy", "Privacy")):
            site.page(p, title, f"<p>{E(title)}: information for residents.</p>")
        h, f = self._simple_form(site, "/contact", "contact", rng)
        site.page("/contact", "Contact us", h, forms=[f])
        recs = [Record(i, t, "Council", "Page", "", "", t.lower(), href=p) for i, (p, t) in enumerate(pages)]
        recs += [
            Record(100 + i, title, "Council", "Page", "", "", title.lower(), href=path) for i, (title, path) in enumerate(site.menu[1:])
        ]
        site.actions["/search"] = Action("search", "council", [("q", "text")], recs, "/", "page", "pages")
        site.page(
            "/",
            "Harbour City Council",
            '<h2>Popular tasks</h2><ul><li><a href="/bins/">Check your bin day</a></li><li><a href="/parking/">Pay a parking fine</a></li>'
            '<li><a href="/planning/">Planning applications</a></li><li><a href="/libraries/">Library opening hours</a></li></ul>'
            "<h2>News</h2><ul>" + "".join(f'<li><a href="{p}">{E(t)}</a></li>' for p, t in pages[:5]) + "</ul>",
        )

    def _magazine_site(self) -> None:
        """heldout6/7: a lifestyle magazine writing about hotels, gardens, wine and music, with a
        site search over its articles and a section select (not a search of either topic's records)."""
        rng = random.Random(f"{self.seed}-magazine")
        host = "www.theweekender-mag.test"
        site = Site(self, host, "The Weekender", "offtopic", "magazine")
        self.sites[host] = site
        sections = [
            ("Travel & hotels", "travel", "hotels"),
            ("Gardens", "gardens", "plants"),
            ("Food & drink", "food", "wine"),
            ("Music", "music", "instruments"),
            ("Homes", "homes", "realestate"),
        ]
        opts = '<option value="">Everything</option>' + "".join(f'<option value="{s}">{E(n)}</option>' for n, s, _ in sections)
        site.header_form = (
            f'<form action="/search/" method="get" class="mag-search"><input type="text" name="s" aria-label="Search The Weekender" placeholder="Search articles">'
            f'<select name="section" aria-label="Section">{opts}</select><input type="submit" value="Search"></form>'
        )
        news_html, news_entry = self.newsletter(site, rng)
        site.footer_form = news_html
        site.layout_forms = [("/search/", "get", "search", "magazine"), news_entry]
        site.menu = [("Home", "/")] + [(n, f"/{s}/") for n, s, _ in sections] + [("Competitions", "/competitions/")]
        site.footer = [("About", "/about"), ("Advertise", "/advertise"), ("Contact", "/contact")]
        recs, all_paths = [], []
        for name, sec, topic in sections:
            t = TOPICS[topic]
            paths = []
            for i in range(11):
                title = f"{rng.choice(['The best', 'Ten', 'Our favourite', 'Where to find', 'A guide to'])} {t['plural']}: {rng.choice(t['title_a'])} {rng.choice(t['title_b'])}"
                text = " ".join(rng.sample(t["sentences"], 2))
                p = f"/{sec}/{slug(title)}-{i}/"
                paths.append((p, title))
                recs.append(Record(len(recs), title, "Staff writer", name, "Article", "", text.lower(), href=p))
                h, f = self._simple_form(site, p, "comment", rng)
                site.page(
                    p,
                    title,
                    f"<p>{E(text)}</p><p>{E(rng.choice(t['sentences']))}</p>{h}",
                    crumbs=[(name, f"/{sec}/"), (title, p)],
                    forms=[f],
                )
            all_paths += paths
            site.page(
                f"/{sec}/",
                name,
                "<ul>" + "".join(f'<li><a href="{p}">{E(t)}</a></li>' for p, t in paths) + "</ul>",
                crumbs=[(name, f"/{sec}/")],
            )
        site.actions["/search/"] = Action("search", "magazine", [("s", "text"), ("section", "other")], recs, "/", "article", "articles")
        h, f = self._fresh2_form(site, "competition", rng)
        site.page("/competitions/", "Competitions", h, forms=[f])
        site.page(
            "/",
            "The Weekender",
            "<h2>This week</h2><ul>" + "".join(f'<li><a href="{p}">{E(t)}</a></li>' for p, t in rng.sample(all_paths, 12)) + "</ul>",
        )
        site.page("/about", "About", "<p>The Weekender: ideas for your days off.</p>")
        site.page("/advertise", "Advertise", "<p>Reach 200,000 readers a week.</p>")
        h, f = self._simple_form(site, "/contact", "contact", rng)
        site.page("/contact", "Contact", h, forms=[f])

    FILLERS = [
        ("Bright Smile Dental", "brightsmiledental", "health"),
        ("Oakridge Family Clinic", "oakridgeclinic", "health"),
        ("Lakeside Yoga Studio", "lakesideyoga", "health"),
        ("St. Brendan's Parish", "stbrendans", "society"),
        ("Maple Grove Elementary", "maplegrove-school", "education"),
        ("Riverside Community College", "riversidecc", "education"),
        ("Johnson Plumbing & Heating", "johnsonplumbing", "local"),
        ("Green Thumb Landscaping", "greenthumbland", "local"),
        ("Quickprint Copy Center", "quickprint", "local"),
        ("Bella Napoli Pizzeria", "bellanapoli", "local"),
        ("Paws & Claws Veterinary", "pawsclawsvet", "health"),
        ("Hillside Tennis Club", "hillsidetennis", "sports"),
        ("Metro Cycling League", "metrocycling", "sports"),
        ("Anna Kowalski Photography", "annakphoto", "personal"),
        ("Dave's Model Trains", "davestrains", "personal"),
        ("City Historical Society", "cityhistory", "society"),
        ("Northside Animal Shelter", "northsideshelter", "society"),
        ("Summit Accounting LLC", "summitaccounting", "local"),
        ("Brew Lab Coffee", "brewlabcoffee", "local"),
        ("The Knitting Circle", "knittingcircle", "personal"),
    ]

    def _filler_sites(self) -> None:
        """Small sites of no topic (local businesses, clubs, personal pages): contact forms, site searches."""
        fillers = [f for f in self.FILLERS if not (self.fresh2 and f[1] in FRESH2_DROPPED_FILLERS)]
        if self.fresh3:
            fillers = FILLERS3
        if self.fresh4:
            fillers = FILLERS4
        if self.fresh5:
            fillers = FILLERS5
        if self.fresh6:
            fillers = FILLERS6
        if self.fresh7:
            fillers = FILLERS7
        if self.fresh8:
            fillers = FILLERS8
        if self.fresh9:
            fillers = FILLERS9
        if self.fresh10:
            fillers = FILLERS10
        if self.fresh11:
            fillers = FILLERS11
        if self.fresh12:
            fillers = FILLERS12
        if self.fresh13:
            fillers = FILLERS13
        for name, host_name, cat in fillers:
            rng = random.Random(f"{self.seed}-{host_name}")
            host = f"www.{host_name}.test"
            site = Site(self, host, name, "filler", cat)
            self.sites[host] = site
            pages = rng.sample(
                [
                    "Services",
                    "Our team",
                    "Hours & location",
                    "Gallery",
                    "Events",
                    "Members",
                    "Prices",
                    "History",
                    "FAQ",
                    "Volunteer",
                    "Schedule",
                    "News",
                ],
                rng.randrange(3, 8),
            )
            site.menu = [("Home", "/")] + [(p, f"/{slug(p)}/") for p in pages] + [("Contact", "/contact/")]
            site.footer = [("Privacy", "/privacy/")]
            extra = FRESH2_FILLER_FORMS.get(host_name) if self.fresh2 else None
            if self.fresh3:
                extra = FRESH3_FILLER_FORMS.get(host_name)
            if self.fresh4:
                extra = FRESH4_FILLER_FORMS.get(host_name)
            if self.fresh5:
                extra = FRESH5_FILLER_FORMS.get(host_name)
            if self.fresh6:
                extra = FRESH6_FILLER_FORMS.get(host_name)
            if self.fresh7:
                extra = FRESH7_FILLER_FORMS.get(host_name)
            if self.fresh8:
                extra = FRESH8_FILLER_FORMS.get(host_name)
            if self.fresh9:
                extra = FRESH9_FILLER_FORMS.get(host_name)
            if self.fresh10:
                extra = FRESH10_FILLER_FORMS.get(host_name)
            if self.fresh11:
                extra = FRESH11_FILLER_FORMS.get(host_name)
            if self.fresh12:
                extra = FRESH12_FILLER_FORMS.get(host_name)
            if self.fresh13:
                extra = FRESH13_FILLER_FORMS.get(host_name)
            if extra:  # a booking or donation form, linked from the menu
                site.menu.insert(len(site.menu) - 1, (extra[0], extra[1]))
            if rng.random() < 0.5:  # a WordPress site: its search box submits to the home page
                site.header_form = (
                    '<form role="search" method="get" class="search-form" action="/"><label>'
                    '<span class="screen-reader-text">Search for:</span><input type="search" class="search-field" '
                    'placeholder="Search &hellip;" value="" name="s"></label><input type="submit" class="search-submit" value="Search"></form>'
                )
                recs = [Record(i, p, name, cat, "", "", p.lower(), href=f"/{slug(p)}/") for i, p in enumerate(pages)]
                site.actions["/"] = Action("search", "site:" + cat, [("s", "text")], recs, "/", "post", "posts")
                site.layout_forms = [("/", "get", "search", "site:" + cat)]
            elif rng.random() < 0.5:
                html_, entry = self.newsletter(site, rng)
                site.footer_form = html_
                site.layout_forms = [entry]
            for p in pages:
                site.page(f"/{slug(p)}/", p, f"<p>{E(name)}: {E(p.lower())}. Call us or stop by.</p>")
            site.page("/privacy/", "Privacy", "<p>We respect your privacy.</p>")
            h, f = self._simple_form(site, "/contact/", "contact", rng)
            site.page("/contact/", "Contact", h, forms=[f])
            if extra:
                h, f = self._fresh2_form(site, extra[2], random.Random(f"{self.seed}-{host_name}-extra"))
                site.page(extra[1], extra[0], f"<p>{E(name)}: {E(extra[0].lower())} online.</p>{h}", forms=[f])
            site.page(
                "/",
                name,
                f"<p>Welcome to {E(name)}.</p><ul>" + "".join(f'<li><a href="/{slug(p)}/">{E(p)}</a></li>' for p in pages) + "</ul>",
            )

    # ------------------------------------------------------------------ portals and links
    def _interlink(self) -> None:
        rng = random.Random(f"{self.seed}-links")
        targets = [s for s in self.sites.values()]
        by_topic: dict[str, list[Site]] = {}
        for s in targets:
            by_topic.setdefault(s.topic, []).append(s)
        # partners pages of topic sites and blogrolls of topic blogs
        for s in targets:
            if s.kind == "topic":
                same = [o for o in by_topic[s.topic] if o is not s]
                other = [o for o in targets if o.topic != s.topic]
                picks = rng.sample(same, rng.randrange(1, 3)) + rng.sample(other, rng.randrange(2, 5))
                rng.shuffle(picks)
                s.page(
                    "/partners",
                    "Partners",
                    "<p>Friends of the shop:</p><ul>"
                    + "".join(f'<li><a href="http://{o.host}/">{E(o.name)}</a></li>' for o in picks)
                    + "</ul>",
                )
            elif s.kind == "topic-blog":
                same = [o for o in by_topic[s.topic] if o is not s]
                picks = rng.sample(same, rng.randrange(2, 5)) + rng.sample([o for o in targets if o.kind != "topic-blog"], 2)
                s.page(
                    "/links", "Blogroll", "<ul>" + "".join(f'<li><a href="http://{o.host}/">{E(o.name)}</a></li>' for o in picks) + "</ul>"
                )
        # two web directories and a links blog (the seeds)
        groups = {
            "books": "Arts: Literature: Bookstores",
            "movies": "Arts: Movies: Video stores",
            "jobs": "Business: Employment: Job boards",
            "autos": "Shopping: Vehicles: Dealers",
            "music": "Arts: Music: Record stores",
            "realestate": "Business: Real estate: Listings",
            "airfare": "Recreation: Travel: Airfare",
            "recipes": "Home: Cooking: Recipes",
            "docs": "Computers: Programming: Languages",
            "news": "News: Newspapers",
            "hardware": "Shopping: Home & garden: Hardware",
            "gardening": "Home: Gardening: Forums",
            "weather": "Science: Weather",
            "health": "Health: Local practices",
            "society": "Society: Organizations",
            "education": "Reference: Education: Schools",
            "local": "Regional: Local businesses",
            "sports": "Sports: Clubs",
            "personal": "Society: Personal homepages",
        }
        if self.fresh:
            groups.update(
                {
                    "courses": "Reference: Education: Adult learning",
                    "pets": "Recreation: Pets: Adoption and rescue",
                    "events": "Arts: Performing arts: Tickets",
                }
            )
        if self.fresh2:
            groups.update(
                {
                    "hotels": "Recreation: Travel: Lodging",
                    "wine": "Home: Food and drink: Wine merchants",
                    "plants": "Home: Gardening: Nurseries",
                    "instruments": "Shopping: Music: Instruments",
                    "council": "Regional: Government: Councils",
                    "magazine": "News: Magazines: Lifestyle",
                }
            )
        if self.fresh3:
            groups.update(
                {
                    "genealogy": "Society: Genealogy: Records online",
                    "bicycles": "Recreation: Cycling: Bike shops",
                    "patents": "Science: Intellectual property: Patents",
                    "boats": "Recreation: Boating: Brokers",
                    "library": "Reference: Libraries: Public",
                    "university": "Reference: Education: Universities",
                }
            )
        if self.fresh4:
            groups.update(
                {
                    "trials": "Health: Medical research: Clinical trials",
                    "caselaw": "Society: Law: Case law",
                    "museums": "Arts: Museums: Collections online",
                    "papers": "Science: Publications: Repositories",
                    "wine": "Home: Food and drink: Wine merchants",
                    "events": "Arts: Performing arts: Tickets",
                    "boats": "Recreation: Boating: Brokers",
                    "instruments": "Shopping: Music: Instruments",
                    "bicycles": "Recreation: Cycling: Bike shops",
                    "hospital": "Health: Hospitals",
                    "lawfirm": "Society: Law: Firms",
                    "tourism": "Regional: Travel and tourism",
                }
            )
        if self.fresh5:
            groups.update(
                {
                    "grants": "Society: Philanthropy: Grant funders",
                    "scholarships": "Reference: Education: Student finance",
                    "rentals": "Business: Real estate: Lettings",
                    "recalls": "Shopping: Consumer information: Product recalls",
                    "legislation": "Society: Law: Legislation",
                    "volunteering": "Society: Volunteering",
                    "tenants": "Society: Housing: Advice",
                    "reviews": "News: Magazines: Consumer",
                }
            )
        if self.fresh6:
            groups.update(
                {
                    "tenders": "Business: Government: Procurement",
                    "sheetmusic": "Arts: Music: Printed music",
                    "music": "Arts: Music: Record stores",
                    "books": "Arts: Literature: Bookstores",
                    "jobs": "Business: Employment: Job boards",
                    "autos": "Shopping: Vehicles: Dealers",
                    "recipes": "Home: Cooking: Recipes",
                }
            )
        if self.fresh7:
            groups.update(
                {
                    "obituaries": "Society: Death and bereavement: Family notices",
                    "ships": "Business: Transport: Maritime: Vessel registers",
                    "auctions": "Shopping: Antiques: Auction houses",
                }
            )
        if self.fresh8:
            groups.update(
                {"memorials": "Society: History: Remembrance: Rolls of honour", "fonts": "Arts: Design: Typography: Type foundries"}
            )
        if self.fresh9:
            groups.update(
                {
                    "theses": "Reference: Education: Universities: Research repositories",
                    "podcasts": "Arts: Radio and audio: Podcast directories",
                    "permits": "Regional: Local government: Planning and building control",
                }
            )
        if self.fresh10:
            groups.update(
                {"dictionaries": "Reference: Language: Lexicons and glossaries", "campsites": "Recreation: Outdoors: Camping: Campsites"}
            )
        if self.fresh11:
            groups.update(
                {
                    "charities": "Society: Philanthropy: Charities and causes",
                    "schools": "Reference: Education: School finders and admissions",
                    "walks": "Recreation: Outdoors: Walking and hiking: Routes",
                    "fundraisers": "Society: Philanthropy: Fundraising",
                    "tutors": "Reference: Education: Tutoring",
                    "holidays": "Recreation: Travel: Walking holidays",
                }
            )
        if self.fresh12:
            groups.update(
                {
                    "lyrics": "Arts: Music: Lyrics and song words",
                    "archives": "Reference: Archives and record offices",
                    "sightings": "Science: Biology: Wildlife recording",
                    "karaoke": "Recreation: Parties: Karaoke hire",
                    "talks": "Society: History: Local history societies",
                    "boattrips": "Recreation: Travel: Boat trips",
                }
            )
        if self.fresh13:
            groups.update(
                {
                    "medicines": "Health: Pharmacy: Medicines information",
                    "maps": "Reference: Maps: Historic map collections",
                    "datasets": "Reference: Open data: Data portals",
                    "pharmacyjobs": "Business: Employment: Healthcare recruitment",
                    "orienteering": "Sports: Orienteering: Clubs",
                    "datatraining": "Computers: Training: Data skills",
                }
            )
        if self.fresh14:
            groups.update(
                {
                    "companies": "Business: Company information: Registers",
                    "specimens": "Science: Natural history: Museum collections",
                    "photographs": "Arts: Photography: Historic photograph archives",
                    "accountancy": "Business: Accounting: Firms",
                    "naturetrips": "Recreation: Outdoors: Guided nature walks",
                    "photoclasses": "Arts: Photography: Classes and studios",
                }
            )
        if self.fresh15:
            groups.update(
                {
                    "buildings": "Reference: Heritage: Listed buildings registers",
                    "newspapers": "Reference: History: Newspaper archives",
                    "finds": "Science: Archaeology: Finds recording",
                    "conservationbuilders": "Business: Construction: Conservation builders",
                    "newsdelivery": "Shopping: Newsagents: Home delivery",
                    "detecting": "Recreation: Metal detecting: Clubs",
                }
            )
        if self.fresh16:
            groups.update(
                {
                    "stamps": "Recreation: Collecting: Stamp catalogues",
                    "placenames": "Reference: Geography: Place-name gazetteers",
                    "bells": "Society: Religion: Church bells and towers",
                    "stampshop": "Shopping: Hobbies: Philatelic supplies",
                    "signwriting": "Business: Signs: Signwriters",
                    "handbellhire": "Arts: Music: Handbell hire",
                }
            )
        if self.fresh17:
            groups.update(
                {
                    "minutes": "Regional: Government: Council minutes and decisions",
                    "wrecks": "Recreation: Diving: Shipwreck registers",
                    "matches": "Sports: Cricket: Scorecards and match archives",
                    "minutetaking": "Business: Secretarial: Minute taking",
                    "divecharters": "Recreation: Diving: Dive charters",
                    "sportstickets": "Shopping: Tickets: Cricket tickets",
                }
            )
        for host, name, share in [("www.openlinkdirectory.test", "Open Link Directory", 0.55), ("www.webguide.test", "The Web Guide", 0.5)]:
            first = host.startswith("www.open")
            host, name = self.renamed(host, name)
            site = Site(self, host, name, "portal", "directory")
            self.sites[host] = site
            site.menu = [("Home", "/"), ("Suggest a site", "/suggest"), ("About", "/about")]
            site.footer = [("About", "/about")]
            site.header_form = (
                '<form action="/dsearch" method="get"><input type="text" name="q" size="25">'
                '<input type="submit" value="Search the directory"></form>'
            )
            site.layout_forms = [("/dsearch", "get", "search", "directory")]
            listed = [s for s in targets if rng.random() < share]
            recs = [Record(i, s.name, "", s.topic, "", "", s.host, href=f"http://{s.host}/") for i, s in enumerate(listed)]
            site.actions["/dsearch"] = Action("search", "directory", [("q", "text")], recs, "/site/", "site", "sites")
            cats = []
            for topic, label in groups.items():
                members = [s for s in listed if s.topic == topic]
                if not members:
                    continue
                p = f"/dir/{slug(label)}/"
                dead = self.dead_sites.get(topic, [])[: 1 if first else 2]
                cats.append((p, label, len(members) + len(dead)))
                site.page(
                    p,
                    label,
                    "<ul>"
                    + "".join(
                        f'<li><a href="http://{s.host}/">{E(s.name)}</a> &ndash; {E(s.kind.replace("topic-blog", "blog").replace("topic", "online store"))}</li>'
                        for s in members
                    )
                    + "".join(f'<li><a href="http://{h}/">{E(n)}</a> &ndash; online store</li>' for n, h in dead)
                    + "</ul>",
                    crumbs=[(label, p)],
                )
            site.page(
                "/",
                name,
                "<p>A human-edited guide to the web.</p><ul>"
                + "".join(f'<li><a href="{p}">{E(lab)}</a> ({n})</li>' for p, lab, n in cats)
                + "</ul>",
            )
            site.page("/about", "About", "<p>Editors review every site before listing it.</p>")
            cats_opts = "".join(f"<option>{E(lab)}</option>" for lab in groups.values())
            action = "/suggest/submit"
            site.actions[action] = Action("submission", "directory")
            site.page(
                "/suggest",
                "Suggest a site",
                f'<form action="{action}" method="post"><label>Site URL <input type="text" name="url"></label>'
                f'<label>Title <input type="text" name="title"></label><label>Category <select name="cat">{cats_opts}</select></label>'
                f'<label>Description <textarea name="desc"></textarea></label><input type="submit" value="Suggest"></form>',
                forms=[(action, "post", "submission", "directory")],
            )
            self.seeds.append(f"http://{host}/")
        host, name = self.renamed("www.tuesdaylinks.test", "Tuesday Links")
        site = Site(self, host, name, "portal", "blog")
        self.sites[host] = site
        site.menu = [("Home", "/"), ("Archive", "/archive/")]
        site.footer = []
        posts = []
        pool = [s for s in targets]
        for i in range(10):
            picks = rng.sample(pool, 6)
            p = f"/2026/{i + 1:02d}/links-{i + 1}.html"
            posts.append(p)
            h, f = self._simple_form(site, p, "comment", rng)
            site.page(
                p,
                f"Links for week {i + 1}",
                "<ul>" + "".join(f'<li><a href="http://{o.host}/">{E(o.name)}</a>: worth a look.</li>' for o in picks) + f"</ul>{h}",
                forms=[f],
            )
        site.page(
            "/",
            "Tuesday Links",
            "<p>Interesting sites, every Tuesday.</p><ul>"
            + "".join(f'<li><a href="{p}">{p}</a></li>' for p in posts[:5])
            + '</ul><p><a href="/archive/">Older posts</a></p>',
        )
        site.page("/archive/", "Archive", "<ul>" + "".join(f'<li><a href="{p}">{p}</a></li>' for p in posts) + "</ul>")
        self.seeds.append(f"http://{host}/")

    # ------------------------------------------------------------------ ground truth
    def links_of(self, site: Site, path: str) -> list[str]:
        doc = site.pages.get(path) or ""
        out = []
        for href in re.findall(r'href="([^"]+)"', doc) + re.findall(r'<iframe [^>]*src="([^"]+)"', doc):
            href = html.unescape(href)
            if href.startswith("/static/"):
                continue
            out.append(urllib.parse.urljoin(site.url(path), href))
        return out

    def _compute_depths(self) -> None:
        self.depth: dict[str, int] = {}  # in-site link depth of every static page
        for site in self.sites.values():
            if getattr(site, "parent", None):
                continue  # heldout34-36: a sub-host's pages are counted from its parent site's home, below
            depth = {"/": 0}
            queue = ["/"]
            while queue:
                p = queue.pop(0)
                for u in self.links_of(site, p):
                    parts = urllib.parse.urlsplit(u)
                    q = parts.path + ("?" + parts.query if parts.query else "")
                    if parts.netloc == site.host and q not in depth and site.pages.get(q) is not None:
                        depth[q] = depth[p] + 1
                        queue.append(q)
            for p, d in depth.items():
                self.depth[site.url(p)] = d
        for site in self.sites.values():
            if not getattr(site, "parent", None):
                continue
            parent = self.sites[site.parent]
            depth = {}
            for p, doc in parent.pages.items():
                d = self.depth.get(parent.url(p))
                if d is None or doc is None:
                    continue
                for u in self.links_of(parent, p):
                    parts = urllib.parse.urlsplit(u)
                    q = parts.path + ("?" + parts.query if parts.query else "")
                    if parts.netloc == site.host and site.pages.get(q) is not None and depth.get(q, d + 2) > d + 1:
                        depth[q] = d + 1
            queue = sorted(depth, key=lambda q: depth[q])
            while queue:
                p = queue.pop(0)
                for u in self.links_of(site, p):
                    parts = urllib.parse.urlsplit(u)
                    q = parts.path + ("?" + parts.query if parts.query else "")
                    if parts.netloc == site.host and site.pages.get(q) is not None and depth.get(q, depth[p] + 2) > depth[p] + 1:
                        depth[q] = depth[p] + 1
                        queue.append(q)
            for p, d in depth.items():
                self.depth[site.url(p)] = d
        # reachability from the seeds over all links
        seen, queue = set(self.seeds), list(self.seeds)
        while queue:
            u = queue.pop(0)
            parts = urllib.parse.urlsplit(u)
            site = self.sites.get(parts.netloc)
            if not site:
                continue
            p = parts.path + ("?" + parts.query if parts.query else "")
            for v in self.links_of(site, p):
                if v not in seen and v.startswith("http://"):
                    seen.add(v)
                    queue.append(v)
        self.reachable = seen
        for truth in self.forms.values():
            ds = [self.depth[p] for p in truth.pages if p in self.depth]
            truth.depth = min(ds) if ds else None
            site = self.sites.get(urllib.parse.urlsplit(truth.action).netloc) or self.sites[truth.host]
            path = urllib.parse.urlsplit(truth.action).path
            truth.action_disallowed = any(rule and path.startswith(rule) for rule in star_disallows(site.robots or ""))
        for host, site in self.sites.items():
            if site.kind == "topic" and f"http://{host}/" not in seen:
                raise RuntimeError(f"{self.name}: {host} not reachable from the seeds")

    def ground_truth(self) -> dict:
        forms = []
        for t in sorted(self.forms.values(), key=lambda f: (f.host, f.action, f.method)):
            forms.append(
                {
                    "host": t.host,
                    "action": t.action,
                    "method": t.method,
                    "kind": t.kind,
                    "topic": t.topic,
                    "site_kind": t.site_kind,
                    "depth": t.depth,
                    "pages": sorted(t.pages),
                    "action_disallowed_by_robots": t.action_disallowed,
                }
            )
        return {
            "web": self.name,
            "seed": self.seed,
            "designated_topic": self.topic,
            "topics": self.topics,
            "heldout": self.heldout,
            "seeds": self.seeds,
            "static_pages": sum(1 for s in self.sites.values() for p in s.pages),
            "sites": {h: {"name": s.name, "kind": s.kind, "topic": s.topic} for h, s in sorted(self.sites.items())},
            "forms": forms,
        }

    # ------------------------------------------------------------------ serving
    def respond(self, method: str, host: str, path: str, query: str, body: str) -> tuple[int, str, str]:
        site = self.sites.get(host)
        if site is None:
            return 502, "text/plain", f"unknown host {host}\n"
        if path == "/robots.txt":
            if site.robots is None:
                return 404, "text/html", "<html><body><h1>Not found</h1></body></html>"
            return 200, "text/plain", site.robots
        if site.kind == "offtopic" and path.count("/") >= 3 and int(hashlib.md5(path.encode()).hexdigest()[:6], 16) % 9 == 0:
            # a few pages of the big off-topic sites fail, as real servers do
            return 503, "text/html", "<html><body><h1>503 Service Temporarily Unavailable</h1></body></html>"
        if path.startswith("/static/") or path.startswith("/img/"):
            return 200, "text/css", "body{font-family:sans-serif}\n"
        action = site.actions.get(path)
        if action is not None and (query or method == "POST" or action.kind != "search" or path not in site.pages):
            params = urllib.parse.parse_qs(query, keep_blank_values=True)
            if method == "POST":
                for k, v in urllib.parse.parse_qs(body, keep_blank_values=True).items():
                    params.setdefault(k, []).extend(v)
            if action.token and params.get(action.token[0]) != [action.token[1]]:
                # heldout40-42: a submission without the search page's CSRF token
                return (
                    403,
                    "text/html",
                    f"<!DOCTYPE html><html><head><title>Session expired | {E(site.name)}</title></head><body><h1>Your session has expired</h1>"
                    "<p>The form you submitted is out of date. Please go back to the search page, reload it and try again.</p>"
                    f'<p><a href="/">{E(site.name)}</a></p></body></html>',
                )
            if action.pathq and method == "GET":
                # heldout43-45: the one-box search redirects to the query in the URL path
                term = " ".join(v for n, _role in action.fields for v in params.get(n, [])).strip().lower()
                loc = action.pathq + urllib.parse.quote(re.sub(r"\s+", "-", term), safe="")
                return 302, "text/html", f'<html><body><p>Moved: <a href="{E(loc)}">{E(loc)}</a></p></body></html>'
            if action.refresh:
                # heldout40-42: "Searching..." and a refresh to the results at another URL, the query in it
                pairs = [(k, v) for k, vs in params.items() for v in vs if not (action.token and k == action.token[0])]
                sid = hashlib.md5(f"{path}?{query}&{body}".encode()).hexdigest()[:12]
                url = action.refresh + "?" + urllib.parse.urlencode([("sid", sid), *pairs])
                return (
                    200,
                    "text/html",
                    f'<!DOCTYPE html><html><head><meta http-equiv="refresh" content="1; url={E(url)}"><title>Searching... | {E(site.name)}</title>'
                    f"</head><body><h1>Searching&hellip;</h1><p>Please wait while we search the {E(action.plural)}.</p>"
                    f'<p><a href="{E(url)}">Click here if your results do not appear</a></p></body></html>',
                )
            page = self._action_page(site, action, params, method, path)
            return 200, "text/html", germanize(page) if host in self.german_hosts else page
        for act in site.actions.values():
            if act.pathq and path.startswith(act.pathq) and method != "POST" and "/" not in path[len(act.pathq) :]:
                # heldout43-45: the results of a one-box search at /PREFIX/TERM (pages: ?page=N)
                params = urllib.parse.parse_qs(query, keep_blank_values=True)
                term = urllib.parse.unquote(path[len(act.pathq) :]).replace("-", " ")
                params[act.fields[0][0]] = [term]
                return 200, "text/html", self._action_page(site, act, params, "GET", path)
        query = urllib.parse.urlencode(sorted(urllib.parse.parse_qsl(query, keep_blank_values=True)))
        full = path + ("?" + query if query else "")
        for key in (full, path):
            if key in site.pages:
                doc = site.pages[key]
                if doc is None and path.startswith(site.item_prefix):
                    rid = path[len(site.item_prefix) :]
                    rec = next((r for r in site.records if str(r.rid) == rid), None)
                    doc = site._item(rec) if rec else None
                    if doc is not None and host in self.german_hosts:
                        doc = germanize(doc)
                if doc is not None:
                    return 200, "text/html", doc
        return (
            404,
            "text/html",
            f'<html><head><title>Page not found</title></head><body><h1>404 Not Found</h1><p><a href="/">{E(site.name)}</a></p></body></html>',
        )

    def _action_page(self, site: Site, action: Action, params: dict, method: str, path: str) -> str:
        def wrap(title: str, body: str) -> str:
            return (
                f"<!DOCTYPE html><html><head><title>{E(title)} | {E(site.name)}</title></head><body>"
                f'<header><a href="/">{E(site.name)}</a></header><main><h1>{E(title)}</h1>{body}</main></body></html>'
            )

        if action.kind != "search":
            if action.kind == "consent" and method == "POST":  # heldout40-42: the cookie-consent wall's buttons
                return wrap(
                    "Cookie settings",
                    "<p>Your cookie choices have been saved. You can change them at any time from the link in the footer.</p>"
                    '<p><a href="/home">Continue to the site</a></p>',
                )
            if action.kind == "navigation":
                dest = (params.get("page") or ["/"])[0] or "/"
                return wrap("Go to", f'<p><a href="{E(dest)}">Continue</a></p>')
            if method != "POST" and action.kind not in (
                "track",
                "locator",
                "status",
                "report",
                "preference",
                "voucher",
                "delivery",
                "booking",
                "calculator",
                "watch",
                "problem",
                "unsubscribe",
                "poll",
                "alert",
                "eligibility",
                "tickets",
                "export",
                "quote",
                "availability",
                "fundcheck",
                "feedback",
            ):
                return wrap("Please use the form", "<p>This page only accepts form submissions.</p>")
            msg = {
                "newsletter": "Thanks for subscribing! Check your inbox to confirm.",
                "login": "Invalid username or password.",
                "register": "Please fill in all required fields.",
                "contact": "Thank you. Your message has been sent.",
                "comment": "Your comment is awaiting moderation.",
                "checkout": "Your cart is empty.",
                "cart": "Item added to your cart.",
                "track": "We could not find an order with that number.",
                "locator": "Stores near you: Main Street store (2.1 miles).",
                "submission": "Thank you! We will review your submission.",
                "status": "We could not find a record with those details.",
                "report": "Thank you, your report has been logged. We will call you if we hear anything.",
                "donate": "Thank you for your donation.",
                "preference": "Your preferences have been saved.",
                "voucher": "We could not find a voucher with that code.",
                "delivery": "Good news: we deliver to your area.",
                "enquiry": "Thank you: the plant doctor will reply by email.",
                "booking": "Thank you: we will confirm your booking by email.",
                "payment": "We could not find a penalty notice with that number.",
                "competition": "Thank you for entering. Good luck!",
                "calculator": "Estimated cost: 12.50 pounds. This is an estimate, not a quote.",
                "order": "Thank you: your certificate order has been received.",
                "watch": "You are now watching this record. We will email you when it changes.",
                "problem": "Thank you for reporting a problem with this page.",
                "unsubscribe": "You have been unsubscribed.",
                "poll": "Thank you for voting. Results will be published next week.",
                "alert": "Your alert has been set up. We will email you when something new matches.",
                "volunteer": "Thank you for registering your interest. A research nurse will contact you.",
                "eligibility": "This checker is a guide only: please talk to your doctor about taking part in research.",
                "transcript": "Thank you: we will send you a quote for the transcript.",
                "tickets": "Tickets are available on the date you chose. Continue to payment.",
                "imagerequest": "Thank you: the picture library will reply within five working days.",
                "export": "Your citation file is ready to download.",
                "quote": "Your estimate: 84 pounds a month. This is a guide price, not an offer.",
                "availability": "Good news: those dates are available. Continue to book.",
                "viewing": "Thank you: the branch will call you to confirm the viewing.",
                "registration": "Thank you: your place is booked. We have sent you a confirmation email.",
                "valuation": "Thank you: a valuer will contact you within one working day.",
                "fundcheck": "You may be eligible for funding. Read each fund's guidance before you apply.",
                "safetyreport": "Thank you: trading standards will look at your report.",
                "feedback": "Thank you for your feedback. We read every comment.",
                "supplier": "Thank you: check your email to finish registering as a supplier.",
                "arrangement": "Thank you: our arrangers will send you a quote within a week.",
                "notice": "Thank you: now write the wording of your notice. You can preview it before you pay.",
                "tribute": "Thank you: your tribute will appear once a moderator has read it.",
                "vesselreg": "Thank you: your application has been started. We have emailed you a reference.",
                "transcriptorder": "Thank you: we will email the transcript within two working days.",
                "appraisal": "Thank you: a specialist will reply with an estimate within a week.",
                "bid": "Please sign in or register to bid before leaving a commission bid.",
                "deposit": "Thank you: the library will check your deposit and email you its handle.",
                "podsubmit": "Thank you: we will check your feed and add your show within two days.",
                "objection": "Thank you: your comment has been received and will be published on the application.",
                "suggestword": "Thank you: an editor will look at your word and write to you if it goes in.",
                "campreview": "Thank you: your review will appear once the campsite's owner has had a chance to reply.",
                "concern": "Thank you: we have logged your concern. We may contact you for more details.",
                "placeapply": "Your application has been saved. You can change your preferences until the closing date.",
                "pathreport": "Thank you: the rights of way team will look at the problem you reported.",
                "tutorbook": "Thank you: we will call you to arrange the free assessment.",
                "holidayenquiry": "Thank you: our team will send you dates and prices within two working days.",
                "pledge": "Thank you: check your email to confirm your sponsorship.",
                "lyricsubmit": "Thank you: a volunteer will check the words against the recording before they go up.",
                "copyorder": "The document has been added to your order. Copies are sent within ten working days.",
                "sightingsubmit": "Thank you: your record will be checked by the county recorder.",
                "hirebook": "Thank you: we will confirm your booking by email within a day.",
                "membership": "Thank you for joining: your membership card will arrive by post.",
                "tripbook": "Thank you: we will email your tickets once payment is confirmed.",
                "sideeffect": "Thank you: your report has been passed to the safety team. Quote the reference in our email.",
                "mapcopy": "The item has been added to your order. Reproductions are sent within ten working days.",
                "datarequest": "Thank you: we have passed your request to the publisher and will write to you.",
                "cvregister": "Thank you: a consultant will call you about your CV.",
                "evententry": "Thank you: your entry is confirmed. Start times are published two days before the event.",
                "coursebook": "Thank you: we will email joining instructions a week before the course.",
                "companydocs": "The documents have been added to your order. Copies are emailed within one working day.",
                "specimenloan": "Thank you: the curator will reply to your loan request within two weeks.",
                "printorder": "The picture has been added to your order. Prints are posted within ten working days.",
                "consultbook": "Thank you: we will call you to arrange your free consultation.",
                "tripplace": "Thank you: your place is booked. Meeting points are emailed a week before the trip.",
                "studiohire": "Thank you: we will confirm your studio booking by email.",
                "buildingrisk": "Thank you: the conservation officer will look at your report and may visit the building.",
                "pageorder": "The page has been added to your order. Copies are emailed within five working days.",
                "findreport": "Thank you: the finds liaison officer will contact you to arrange to see the find.",
                "surveybook": "Thank you: we will call you to arrange a visit to your building.",
                "deliverystart": "Thank you: your deliveries will start within three days.",
                "clubjoin": "Thank you: the membership secretary will send you a form and the club's code of practice.",
                "expertise": "Thank you: post the stamp to the expert committee with the reference we have emailed you.",
                "namesubmit": "Thank you: the survey's editors will look at the name and its sources.",
                "towervisit": "Thank you: the tower captain will confirm your visit by email.",
                "catalogrequest": "Thank you: your catalogue is in the post.",
                "signquote": "Thank you: we will send you a quote for your sign within a week.",
                "handbelltaster": "Thank you: we will confirm the date of your taster session.",
                "councilquestion": "Thank you: the clerk will tell you whether your question is accepted for the meeting.",
                "wreckreport": "Thank you: your report has been passed to the receiver of wreck.",
                "scorecard": "Thank you: the archivist will add the scorecard after checking it.",
                "minutequote": "Thank you: we will send you a quote for minuting your meetings.",
                "divebooking": "Thank you: your place on the boat is booked. The skipper will text you the tides.",
                "hospitalitybooking": "Thank you: we will confirm your hospitality booking by email.",
                "consent": "Your cookie choices have been saved.",
            }[action.kind]
            return wrap("Thank you" if action.kind in ("newsletter", "contact", "submission") else "Notice", f"<p>{msg}</p>")
        words: list[str] = []
        filters: dict[str, str] = {}
        facets: dict[str, set] = {}
        for name, role in action.fields:
            vals = [v for v in params.get(name, []) if v.strip()]
            if not vals:
                continue
            if role == "text":
                words += [w for w in re.findall(r"[a-z0-9$,-]+", " ".join(vals).lower()) if len(w) >= 2]
            elif role in ("category", "format", "price"):
                if action.any_value is not None and vals[0] == action.any_value:
                    continue  # "- Any -" of a Drupal Views form
                filters[role] = vals[0]
            elif role in ("facet", "facet_format"):  # heldout8/9: check boxes, any of the values ticked
                facets[role] = {slug(v) for v in vals}
        stop = {"the", "and", "of", "a", "an", "in", "for", "to", "on", "or", "by", "with"}
        words = [w for w in words if w not in stop]
        if action.min_word and words:
            short = [w for w in words if len(w) < action.min_word]
            words = [w for w in words if len(w) >= action.min_word]
            if short and not words:  # heldout43-45: a full-text index ignores short words: nothing is searched
                return wrap(
                    "Search results",
                    f'<p class="count">0 {E(action.plural)} found.</p><table class="results"><tr><th>Title</th></tr></table>'
                    f'<p class="noresults">Your search returned 0 results.</p><p><a href="/">Back to {E(site.name)}</a></p>',
                )
        if action.needs_cat and "category" not in filters:
            # heldout43-45: the required select: no records until a category is chosen
            return wrap(
                "Search",
                f'<p class="noresults">Please choose a value for &quot;{E(action.needs_cat)}&quot; and search again.</p>'
                f'<p><a href="/">Back to {E(site.name)}</a></p>',
            )
        if action.needs_term and not words and not filters and not facets:
            return wrap(
                "Search",
                '<p class="noresults">Please enter a search term, or choose at least one option, and search again.</p>'
                f'<p><a href="/">Back to {E(site.name) if site else "the home page"}</a></p>',
            )
        recs = action.records
        for role, value in filters.items():
            attr = {"category": "category", "format": "fmt", "price": "price"}[role]
            recs = [r for r in recs if slug(getattr(r, attr)) == slug(value)]
        for role, values in facets.items():
            recs = [r for r in recs if slug(r.category if role == "facet" else r.fmt) in values]
        if words:
            # plain stemming, as site searches do: "books" finds "book", "jobs" finds "job"
            stems = {w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w for w in words}
            recs = [r for r in recs if any(w in r.text() for w in stems)]
        q = " ".join(" ".join(params.get(n, [])) for n, role in action.fields if role == "text").strip()
        adv = f'<p><a href="{action.advanced}">Advanced search</a> &middot; <a href="/">New search</a></p>' if action.advanced else ""
        if not recs:
            return wrap(
                "Search results",
                f'<p class="noresults">No {E(action.plural)} matched your search'
                f"{' for &quot;' + E(q) + '&quot;' if q else ''}. Please try different keywords.</p>" + adv,
            )
        try:
            page = max(1, int((params.get("page") or ["1"])[0]))
        except ValueError:
            page = 1
        shown = recs[(page - 1) * 10 : page * 10]
        rows = "".join(
            f'<tr><td><a href="{r.href or action.item_prefix + str(r.rid)}">{E(r.title)}</a></td><td>{E(r.creator)}</td>'
            f"<td>{E(r.category)}</td><td>{E(r.fmt)}</td><td>{E(r.price)}</td></tr>"
            for r in shown
        )
        more = ""
        if len(recs) > page * 10:
            nxt = dict(params)
            nxt["page"] = [str(page + 1)]
            more = f'<p><a href="{path}?{urllib.parse.urlencode(nxt, doseq=True)}">Next page</a></p>' if method == "GET" else ""
        head = "<th>Title</th><th>By</th><th>Category</th><th>Format</th><th>Price</th>"
        if self.fresh4 and action.topic in TOPICS:
            # heldout10-12: the topic's own column names, and numbered pages (GET links, also after a POST)
            t = TOPICS[action.topic]
            lab = t.get("labels", {"category": "Category", "format": "Format", "price": "Price"})
            head = f"<th>{E(t['noun'].title())}</th><th>{E(t['creator_label'])}</th>" + "".join(
                f"<th>{E(lab[k])}</th>" for k in ("category", "format", "price")
            )
            npages = (len(recs) + 9) // 10
            if npages > 1:
                links = []
                for k in range(1, min(npages, 8) + 1):
                    qq = dict(params)
                    qq["page"] = [str(k)]
                    href = f"{path}?{urllib.parse.urlencode(qq, doseq=True)}"
                    links.append(f"<strong>{k}</strong>" if k == page else f'<a href="{E(href)}">{k}</a>')
                if page < npages:
                    qq = dict(params)
                    qq["page"] = [str(page + 1)]
                    links.append(f'<a rel="next" href="{E(path + "?" + urllib.parse.urlencode(qq, doseq=True))}">Next &raquo;</a>')
                more = f'<nav class="pagination" aria-label="Results pages">Page: {" ".join(links)}</nav>'
        return wrap(
            "Search results",
            f'<p class="count">{len(recs)} {E(action.plural)} found'
            f"{' for &quot;' + E(q) + '&quot;' if q else ''}. Showing {(page - 1) * 10 + 1}-{(page - 1) * 10 + len(shown)}.</p>"
            f'<table class="results"><tr>{head}</tr>{rows}</table>{more}' + adv,
        )


def main() -> None:
    import argparse
    import json

    ap = argparse.ArgumentParser(description="Write a web's ground truth (the answer key) as JSON.")
    ap.add_argument("--web", default="dev", choices=sorted(WEBS))
    ap.add_argument("--out", help="file to write (default: stdout)")
    args = ap.parse_args()
    text = json.dumps(Web(args.web).ground_truth(), indent=1) + "\n"
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        print(text, end="")


if __name__ == "__main__":
    main()
