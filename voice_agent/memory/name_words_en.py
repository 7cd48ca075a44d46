"""English word lists of the person-name finder: what joins, titles, leads or is a common word or a
place-word rather than a name (``person_names``)."""

from __future__ import annotations


def _words(text: str) -> frozenset[str]:
    """The words of ``text``; one with an apostrophe also as typed with a curly one ("it’s")."""
    words = text.split()
    return frozenset(words + [w.replace("'", "\u2019") for w in words if "'" in w])


CONNECTORS = _words(
    """
    van von der den de del della di da du la le ter ten bin ibn al el dos das y mac st.
    """
)
TITLES = _words(
    """
    mr mrs ms miss mx dr prof sir dame lord lady rev fr herr frau monsieur madame mme mlle señor señora
    sr sra srta signor signora sig dott dra pan pani doctor professor uncle aunt auntie grandma grandpa
    nurse officer captain judge
    """
)
# Words before "at" or "in" that aim at a person rather than place one ("laughed at Tom", "confided in
# Ama"): the capitalised word after them may be a person (``name_runs_en.place_before``).
AIMED_AT = _words(
    """
    look looked looking looks laugh laughed laughing laughs shout shouted shouting yell yelled yelling
    smile smiled smiling wave waved waving snap snapped snapping stare stared staring glare glared
    point pointed pointing swear swore grin grinned nod nodded wink winked frown frowned scream screamed
    bark barked aim aimed throw threw thrown have had angry mad cross furious annoyed upset livid
    confide confided confiding believe believed believes interest interested faith trust see saw seen
    """
)
# Words that start a sentence or greet: never part of a name ("Thanks Caroline", "Hi Mel").
LEADING = _words(
    """
    a an the and or but so if then when while because hi hey hello dear thanks thank yes no oh ok okay
    wow well congrats congratulations bye goodbye good morning night evening afternoon happy sorry
    please i i'm i've we you he she they it this that these those my your his her our their what who
    where why how which did do does is are was were have has had will would can could should also just
    maybe yesterday today tomorrow last next every each on in at for to from with by of about after
    before since until as like love dear mom mum dad
    nah yeah yep yup ya wanna gonna gotta lol omg wow yay aww ugh hmm oops haha
    arey arre aiyo aiyah aiya alamak abeg haba ehn eish yaar acha accha oya ayy och ach
    wah wha weh mi yuh cho ag yoh haibo hawu sho aye oi eh ey ehen wetin abi walao wahlao shiok lah
    wat wot wuh dat dis dem da fo befo neva ova howay
    it's that's there's here's he's she's we're they're you're what's who's where's when's how's let's
    i'd i'll we'll we've we'd you'll you've they'll they've isn't wasn't don't didn't doesn't
    """
)
# Common words that are also names: a name only beside another capitalised name.
COMMON_EN = _words(
    """
    jan feb mar apr jun jul aug sep sept oct nov dec mon tue tues wed thu thur thurs fri sat sun
    january february march april may june july august september october november december monday tuesday
    wednesday thursday friday saturday sunday christmas easter will grace hope faith joy rose mark bill
    rich long young brown white black green gray grey king love happy golden summer winter spring autumn
    art dean guy sky star sun river stone wood hill lane north south east west new old big little sweet
    baby honey god jesus christ lord angel pretty bright sunny rain snow crystal amber ruby pearl jade
    iris lily daisy ivy holly violet may april june august sunday paris london sydney florence victoria
    georgia virginia carolina india china jordan chad kenya israel america asia africa europe english
    french german spanish italian chinese japanese english american christian muslim jewish buddhist
    catholic sugar candy cookie apple berry cherry olive pepper ginger basil sage clay dawn eve day week
    year time thanks hi hey hello yes okay sorry please nice great good best well fine
    welsh irish scottish scots british polish dutch greek thai turkish swedish danish norwegian finnish
    russian ukrainian czech hungarian romanian portuguese brazilian mexican canadian australian korean
    vietnamese indian pakistani nigerian ghanaian kenyan egyptian moroccan lebanese persian iranian israeli
    filipino indonesian swiss austrian belgian croatian serbian cuban jamaican maori cornish catalan arabic
    hindi urdu punjabi bengali tamil mandarin cantonese hebrew latin european asian african kiwi aussie
    navratri navaratri diwali deepavali eid holi hanukkah chanukah ramadan ramzan passover onam pongal
    vesak thanksgiving kwanzaa purim lent sukkot shavuot lohri baisakhi vaisakhi chhath janmashtami ugadi
    ekadashi shivratri dussehra durga puja ganesh chaturthi karva karwa chauth raksha bandhan nowruz
    mam mammy mammi mummy nana nanna nan gran granny grandad gramps nain taid amma appa ammi abbu dadi
    nani papa mama
    """
)
# Words that make a capitalised run a place or an organisation, not a person.
PLACE = _words(
    """
    street st road rd avenue ave lane drive boulevard park square bridge gate tower castle palace lake
    river mount mountain hill valley bay beach island islands sea ocean forest garden gardens church
    cathedral hall house center centre college university school academy institute hospital clinic
    museum gallery library station airport hotel cafe restaurant bar pub company inc ltd llc corp group
    bank club team market mall store shop city county state states kingdom republic national
    international united federal union association foundation society council ministry department office
    north south east west fort port saint san santa los las new old great day week festival awards cup
    league conference summit show series season chapter pride high girls boys primary secondary grammar
    """
)
# Past forms of irregular verbs, missing from the word list (which has "take", not "took"): a sentence
# that starts with one is no name ("Took Dad to the optometrist"). Past forms that are names too (Drew,
# Rose, Said, Ran, Won, Hung, Sang) are not here.
IRREGULAR_PAST = _words(
    """
    took taken went gone bought brought thought caught taught fought sought told sold held felt left kept
    slept swept wept meant sent spent bent lent built dealt knelt got forgot forgotten found ground bound
    paid laid heard stood understood ate eaten began begun drank drunk sank swam swum sat did done came
    became gave given forgave wrote written grew grown knew known threw thrown flew flown drove driven
    chose chosen froze frozen spoke spoken broke broken woke woken stole stolen shook shaken saw seen
    rode ridden rang rung sung sprang sprung stuck struck swore sworn tore torn wore worn hid hidden
    bit bitten fell fallen forbade lost shot fed led met lit slid spun split quit upset
    """
)
