"""The vocabulary of the synthetic web: common words, and each topic's words,
section names and label."""

from __future__ import annotations

COMMON_WORDS = """
the a an and or but of to in on at for with from by about as into over after before
between through during without within under again further then once here there when
where why how all any both each few more most other some such only own same so than
too very can will just should now also often usually always never sometimes every many
much new old good great small large long short early late first last next best better
simple practical useful common important different easy hard quick careful clear real
people time year day week way part place case point group number world life work hand
example question idea result reason problem change story experience detail choice plan
approach season guide review look note list step start end side level form kind type
make take find give use try keep help show think know learn read write build bring
follow consider explain describe discover prefer remember improve prepare compare share
""".split()

TOPIC_WORDS: dict[str, list[str]] = {
    "java": """java jvm class bytecode spring garbage-collector interface method object
        compiler javac maven gradle thread concurrency lambda stream generics annotation
        hibernate jdk jre heap stack classloader reflection exception servlet tomcat junit
        spring-boot kotlin inheritance polymorphism encapsulation package import static
        final synchronized hotspot jit virtual-machine jakarta microservice dependency
        injection bean jar serialization collections hashmap arraylist design-pattern
        refactoring openjdk record sealed module memory-leak profiler benchmark""".split(),
    "cooking": """recipe oven flour butter garlic onion tomato basil simmer saute roast
        bake dough pasta risotto sauce stock broth spice pepper salt olive-oil kitchen
        chef knife skillet braise marinade dessert chocolate sugar vanilla yeast bread
        cheese parmesan herbs thyme rosemary lemon vinegar grill soup stew noodles rice
        chicken beef vegetables seasoning whisk caramelize pastry crust fillet seafood
        salad dressing appetizer""".split(),
    "finance": """market stocks bond dividend inflation interest-rate investor portfolio
        equity yield earnings revenue profit bank central-bank currency exchange index
        shares valuation hedge-fund pension mortgage loan credit debt budget tax fiscal
        monetary recession growth gdp quarterly analyst trading volatility asset
        liquidity capital merger acquisition ipo commodity gold oil-price savings
        retirement broker futures""".split(),
    "football": """match goal striker midfielder defender goalkeeper coach league
        championship stadium penalty corner offside referee tactics formation pressing
        counterattack transfer fixture derby supporters trophy cup final header
        free-kick dribble assist clean-sheet winger captain squad training injury
        substitute kickoff halftime scoreline promotion relegation academy pitch tackle
        yellow-card red-card manager""".split(),
    "gardening": """garden soil compost seeds seedling mulch prune perennial annual shrub
        hedge lawn tomato-plant roses tulips bulbs watering irrigation greenhouse
        raised-bed fertilizer manure weeds pests aphids slugs pollinator bees blossom
        harvest vegetable-patch herbs potting-mix container trellis climbing shade
        sunlight frost germination cuttings propagation orchard fruit-trees spade trowel
        hoe wildflower meadow""".split(),
    "travel": """travel journey flight airport hotel hostel itinerary passport visa
        luggage backpack beach island mountain hiking trail museum cathedral old-town
        market train railway ferry road-trip guidebook tourist local-cuisine sightseeing
        sunset coast village city-break budget booking destination adventure landscape
        valley lake national-park tour souvenir border customs jet-lag timetable
        harbour""".split(),
    "photography": """camera lens aperture shutter iso exposure sensor tripod flash
        mirrorless dslr prime-lens zoom-lens focal-length bokeh composition portrait
        landscape macro raw lightroom editing histogram white-balance filter polarizer
        autofocus megapixels viewfinder battery memory-card strap lighting softbox studio
        print gallery framing contrast saturation monochrome long-exposure night-sky
        telephoto wide-angle stabilization firmware accessory""".split(),
    "events": """event calendar concert festival exhibition workshop meeting conference
        schedule agenda ticket venue speaker opening closing registration reminder weekly
        monthly session""".split(),
}

TOPIC_SECTIONS: dict[str, list[str]] = {
    "java": ["tutorials", "jvm", "frameworks", "tools"],
    "cooking": ["recipes", "techniques", "ingredients", "kitchen"],
    "finance": ["markets", "economy", "companies", "personal-finance"],
    "football": ["matches", "transfers", "tactics", "clubs"],
    "gardening": ["vegetables", "flowers", "lawn-care", "equipment"],
    "travel": ["destinations", "guides", "tips", "stories"],
    "photography": ["cameras", "lenses", "accessories", "workshops"],
}

TOPIC_LABELS: dict[str, str] = {
    "java": "Java programming and the JVM",
    "cooking": "Cooking and recipes",
    "finance": "Finance and markets",
    "football": "Football news",
    "gardening": "Gardening",
    "travel": "Travel guides",
    "photography": "Photography gear",
}
