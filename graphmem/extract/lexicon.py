"""Word lists and the verb table the offline extractor matches against."""

from __future__ import annotations

from .. import calendar_words as CW
from ..models import STUDENT_HEADS  # noqa: F401 - one list, shared with currency

# --- word lists -------------------------------------------------------------------------------

NUMBER_WORDS: dict[str, int] = {w: i + 1 for i, w in enumerate(
    ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
     "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen",
     "twenty"))}
NUMBER_WORDS.update({"a couple of": 2, "a dozen": 12})
ORDINAL_WORDS: dict[str, int] = {w: i + 1 for i, w in enumerate(
    ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth",
     "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth", "seventeenth",
     "eighteenth", "nineteenth", "twentieth"))}

PETS: dict[str, str] = {
    "cat": "cat", "kitten": "cat", "kitty": "cat", "dog": "dog", "puppy": "dog", "pup": "dog",
    "fish": "fish", "goldfish": "fish", "hamster": "hamster", "rabbit": "rabbit", "bunny": "rabbit",
    "bird": "bird", "parrot": "parrot", "parakeet": "parakeet", "turtle": "turtle",
    "tortoise": "tortoise", "horse": "horse", "pony": "horse", "snake": "snake", "lizard": "lizard",
    "gecko": "gecko", "chicken": "chicken", "hen": "chicken", "guinea pig": "guinea pig",
    "ferret": "ferret", "gerbil": "gerbil", "mouse": "mouse", "rat": "rat", "cockatiel": "bird",
}
POSSESSIONS = frozenset("""
car bike bicycle motorcycle scooter house home apartment condo flat cabin boat truck van suv
laptop computer pc phone smartphone iphone ipad tablet kindle camera tv television piano guitar
keyboard violin drum drums garden pool backyard watch smartwatch printer console drone grill
treadmill vacuum fridge dishwasher headphones subscription membership tesla prius jeep rv
""".split())
HOMES = frozenset("house home apartment condo flat cabin place room studio lease townhouse".split())
FAMILY_COUNT = {"kid": "child", "child": "child", "son": "son", "daughter": "daughter",
                "sibling": "sibling", "brother": "brother", "sister": "sister",
                "grandchild": "grandchild", "grandkid": "grandchild", "twin": "twin"}
# Nouns after "I have N …" that are not possessions (time, abstractions, conversation).
NOT_POSSESSED = frozenset(
    "second minute hour day night week weekend month year time thing question idea option way "
    "reason point step issue problem concern tip suggestion favorite more less fewer left other few "
    "lot bit of hundred thousand million percent dollar buck mile kilometer pound kg".split())
# Plurals the ending rules of `text.singular` get wrong: irregular, unchanged or Latin forms,
# "-ves" for "-f(e)" ("knives", not "knive") and "-uses" for "-us" ("buses", not "buse").
IRREGULAR_PLURALS = {"children": "child", "people": "person", "mice": "mouse", "geese": "goose",
                     "men": "man", "women": "woman", "feet": "foot", "teeth": "tooth",
                     "fish": "fish", "sheep": "sheep", "series": "series", "species": "species",
                     "grandchildren": "grandchild", "stepchildren": "stepchild", "oxen": "ox",
                     "cacti": "cactus", "fungi": "fungus", "dice": "dice", "deer": "deer",
                     "shrimp": "shrimp", "koi": "koi", "bonsai": "bonsai",
                     "knives": "knife", "wives": "wife", "lives": "life", "wolves": "wolf",
                     "shelves": "shelf", "leaves": "leaf", "halves": "half", "loaves": "loaf",
                     "calves": "calf", "scarves": "scarf", "hooves": "hoof", "thieves": "thief",
                     "elves": "elf", "buses": "bus", "campuses": "campus", "viruses": "virus",
                     "bonuses": "bonus", "cactuses": "cactus", "octopuses": "octopus",
                     "walruses": "walrus", "platypuses": "platypus", "priuses": "prius",
                     "citruses": "citrus", "hippopotamuses": "hippopotamus"}
# Singular nouns that end like an irregular plural ("specimen" ends as "men" does).
SINGULAR_LOOKALIKES = frozenset(
    "specimen abdomen omen stamen ramen amen regimen acumen bitumen lumen selfish".split())

RELATIONS: dict[str, str] = {
    "wife": "spouse", "husband": "spouse", "spouse": "spouse", "partner": "partner",
    "boyfriend": "boyfriend", "girlfriend": "girlfriend", "fiance": "fiance", "fiancé": "fiance",
    "fiancee": "fiance", "fiancée": "fiance", "sister": "sister", "brother": "brother",
    "sis": "sister", "bro": "brother", "mother": "mother", "mom": "mother", "mum": "mother",
    "mommy": "mother", "father": "father", "dad": "father", "daddy": "father", "son": "son",
    "daughter": "daughter", "kid": "child", "child": "child", "baby": "child",
    "friend": "friend", "buddy": "friend", "pal": "friend", "bestie": "friend",
    "boss": "boss", "manager": "boss", "supervisor": "boss", "coworker": "colleague",
    "co-worker": "colleague", "colleague": "colleague", "cousin": "cousin", "aunt": "aunt",
    "uncle": "uncle", "niece": "niece", "nephew": "nephew", "grandma": "grandmother",
    "grandmother": "grandmother", "granny": "grandmother", "grandpa": "grandfather",
    "grandfather": "grandfather", "grandson": "grandchild", "granddaughter": "grandchild",
    "roommate": "roommate", "flatmate": "roommate", "neighbor": "neighbor",
    "neighbour": "neighbor", "mentor": "mentor", "coach": "coach", "teacher": "teacher",
    "therapist": "therapist", "doctor": "doctor", "trainer": "trainer", "classmate": "classmate",
    "teammate": "teammate", "stepmom": "stepmother", "stepdad": "stepfather",
    "stepson": "stepson", "stepdaughter": "stepdaughter", "sister-in-law": "sister_in_law",
    "brother-in-law": "brother_in_law", "mother-in-law": "mother_in_law",
    "father-in-law": "father_in_law", "twin": "twin", "landlord": "landlord",
}
# Several relatives at once, for their shared events ("my parents' 40th anniversary is on
# October 12th", "our kids start school on Monday"); not relationships (no names to hold).
GROUP_RELATIONS: dict[str, str] = {
    "parents": "parents", "grandparents": "grandparents", "in-laws": "in_laws",
    "kids": "children", "children": "children", "sons": "children", "daughters": "children",
    "twins": "children", "grandkids": "grandchildren", "grandchildren": "grandchildren",
    "sisters": "siblings", "brothers": "siblings", "siblings": "siblings", "cousins": "cousins",
    "friends": "friends", "neighbours": "neighbors", "neighbors": "neighbors",
    "flatmates": "roommates", "roommates": "roommates", "colleagues": "colleagues",
    "coworkers": "colleagues", "co-workers": "colleagues", "folks": "parents",
}
REL_MODIFIERS = ("best|old|close|good|dear|older|younger|little|big|baby|twin|new|late|ex|"
                 "oldest|youngest|elder|step|childhood|college|work")

OCCUPATIONS = frozenset("""
engineer developer programmer teacher nurse doctor physician surgeon dentist lawyer attorney
designer manager accountant architect artist writer author journalist editor chef cook baker
photographer musician pianist guitarist singer drummer producer scientist researcher professor
lecturer student pharmacist therapist psychologist psychiatrist counselor consultant analyst
economist banker trader entrepreneur founder freelancer contractor electrician plumber carpenter
mechanic technician pilot firefighter paramedic veterinarian vet farmer librarian salesperson
realtor agent administrator assistant secretary receptionist cashier barista bartender waiter
waitress server driver officer soldier marine sailor nanny babysitter tutor coach trainer
instructor dancer actor actress filmmaker director executive ceo cto cfo intern clerk
translator interpreter paralegal biologist chemist physicist mathematician statistician
hairdresser stylist barber cleaner janitor caregiver midwife optometrist radiologist
veterinary homemaker housewife blogger vlogger youtuber streamer influencer illustrator
animator strategist marketer recruiter specialist coordinator supervisor planner investor
undergrad undergraduate freshman sophomore junior senior postdoc candidate scholar lead
postman postwoman courier carer surveyor solicitor builder welder roofer painter decorator gardener
""".split())

# Objects that make a preference statement about the conversation, not the user.
VAGUE_HEADS = frozenset("""
it that this these those them him her you your yours how what when where which who why
idea ideas suggestion suggestions sound way tip tips advice recommendation recommendations list
plan option options response answer answers help point approach thought thoughts info
conversation chat talk discussion explanation reply feedback input breakdown overview summary
insight insights perspective detail details example examples question questions
template templates outline draft format layout structure version revision itinerary script
the a an
information question one ones something anything everything nothing stuff thing things all
both either neither each some any most more less much many lot lots bit kind sort following
few couple several plenty
""".split())
# Last words that make an object a comment on the conversation ("the pasta-making kit idea").
VAGUE_TAILS = frozenset("idea ideas suggestion suggestions tip tips advice recommendation "
                        "recommendations template outline list approach option options format "
                        "layout structure draft version".split())
ACTIVITY_CUT = frozenset("using with for at in from on to into during every each since by as "
                         "and or".split())
ACTIVITY_DROP = frozenset("my our own a an the some his her their more".split())
NOT_ACTIVITIES = frozenset("great good fine okay ok alright better worse amazing awesome well "
                          "pretty much lot best research homework something anything nothing "
                          "everything all again around with".split())
SAW_OBJECTS = frozenset("movie film show concert play musical game exhibit exhibition "
                        "performance documentary series band match opera ballet".split())
LEADING_DROP = ("the ", "a ", "an ", "some ", "any ", "to ")
PUNCT_STRIP = " \t\n\"'“”‘’*_`()[]{}<>.,;:!?-–—"
GENERIC_ORGS = frozenset("moment time night weekend weekends home office day company place job "
                          "firm business organization desk computer same local bit end start "
                          "beginning".split())
NOT_OBJECT_START = frozenset("out into away late off over around back up down by through about "
                             "online offline home there here so too very really well bed sleep "
                             "it that this for at in on to with is was are were makes made has "
                             "have can will would gets keeps helps as lately recently again more less "
                             "before after during while when since until together real hard "
                             "habit routine"
                             .split())
MENTAL_VERBS = frozenset("notice noticing feel feeling think thinking realize realizing wonder "
                          "wondering see seeing get getting worry worrying look looking "
                          "understand appreciate enjoy like love hate doubt question considering "
                          "having wanting needing trying".split())
# Past verbs that report words, wishes or views, not a deed of the day ("my boss suggested on
# Monday that …"; a call is a deed: "my mum called yesterday").
NOT_A_DEED = frozenset("""asked suggested recommended mentioned wanted needed loved liked hated
decided tried hoped expected seemed noticed worried insisted offered promised refused agreed
reminded warned advised pointed complained claimed explained wondered used supposed planned
believed assumed figured guessed preferred enjoyed""".split())
PREPOSITIONS = frozenset("at from on in for with to by about during after before".split())
COUNT_STOP = frozenset("this that so in last now since and but with already before for at on of "
                        "to total far during over the a my our those these them their his her".split())
TOOK_OBJECTS = frozenset("class classes course courses lesson lessons trip trips vacation holiday "
                          "test exam flight tour workshop break cruise train bus walk hike ride "
                          "photos pictures seminar day leave sabbatical".split())
FOOD = frozenset("pizza sushi pasta burgers burger tacos taco ramen curry chocolate coffee tea "
                  "wine beer cheese ice cream spicy food salad steak noodles dumplings pho "
                  "bbq barbecue seafood fish chicken bread cake cookies donuts".split())
# Visits said as experiences ("I've been to Rome twice") are stored as `been_to`.
EXPERIENCE_PREDICATES = frozenset(("went_to", "visited", "traveled_to"))
PLACE_PREDICATES = frozenset(("been_to", "went_to", "visited", "traveled_to", "returned_from",
                               "stayed_at", "ate_at", "lived_in", "left"))
ORG_PREDICATES = frozenset(("joined", "volunteered_at", "graduated_from", "signed_up_for"))
EVENT_BASE = {
    "went_to": "go to", "went_on": "go on", "visited": "visit", "attended": "attend",
    "finished": "finish", "ran": "run", "joined": "join", "took": "take", "watched": "watch",
    "read": "read", "tried": "try", "cooked": "cook", "booked": "book",
    "signed_up_for": "sign up for", "traveled_to": "travel to", "returned_from": "return from",
    "met": "meet", "celebrated": "celebrate", "won": "win", "volunteered_at": "volunteer at",
    "hosted": "host", "participated_in": "participate in", "sold": "sell", "donated": "donate",
    "learned": "learn", "received": "receive", "ordered": "order", "upgraded": "upgrade",
    "graduated_from": "graduate from", "stayed_at": "stay at", "ate_at": "eat at",
    "renovated": "renovate", "hiked": "hike", "passed": "pass", "built": "build",
    "downloaded": "download"}
PROG_BASE = {
    "moving to": "move to", "moving back to": "move back to", "relocating to": "relocate to",
    "visiting": "visit", "attending": "attend", "traveling to": "travel to",
    "travelling to": "travel to", "flying to": "fly to", "driving to": "drive to",
    "heading to": "head to", "starting": "start", "leaving": "leave",
    "getting married": "get married", "hosting": "host", "throwing": "throw", "running": "run",
    "taking": "take", "having": "have", "celebrating": "celebrate", "meeting": "meet",
    "starting a new job at": "start a new job at", "starting at": "start at"}
PREF_VERB = {"love": "loves", "adore": "adores", "like": "likes", "enjoy": "enjoys",
              "prefer": "prefers", "hate": "hates", "dislike": "dislikes", "detest": "detests",
              "loathe": "loathes"}
STATUS_PRED = {"vegan": "diet", "vegetarian": "diet", "pescatarian": "diet", "omnivore": "diet",
                "flexitarian": "diet", "meat eater": "diet", "meat-eater": "diet",
                "lactose intolerant": "dietary_restriction", "gluten free": "dietary_restriction",
                "gluten-free": "dietary_restriction", "retired": "employment_status",
                "unemployed": "employment_status", "self-employed": "employment_status",
                "pregnant": "pregnancy"}
FAV_TYPES = {"restaurant": "organization", "cafe": "organization", "bar": "organization",
              "coffee shop": "organization", "store": "organization", "shop": "organization",
              "brand": "organization", "team": "organization", "city": "place",
              "country": "place", "place": "place", "destination": "place", "food": "food",
              "dish": "food", "cuisine": "food", "snack": "food", "dessert": "food",
              "drink": "food", "meal": "food", "fruit": "food", "sport": "activity",
              "hobby": "activity", "activity": "activity", "exercise": "activity",
              "author": "person", "artist": "person", "singer": "person", "actor": "person",
              "band": "organization"}

# Habits: verbs whose gerund is the activity ("swim" → swimming), light verbs whose object is
# ("play tennis" → tennis), and verbs of eating and drinking (a stance on the food).
ACTIVITY_VERBS = frozenset("""
swim run jog cycle bike hike walk bake cook knit sew crochet paint draw meditate surf ski
snowboard skate climb dance sing garden fish golf box row lift stretch journal smoke vape
volunteer skateboard kayak sail hunt
""".split())
LIGHT_VERBS = frozenset("play do practice practise go take attend".split())
CONSUME_VERBS = frozenset("eat drink".split())
# -ing verbs of a life change that open a subjectless chat sentence about the user ("starting at
# Monzo in November", "moving to Leeds next month").
LIFE_GERUNDS = frozenset("""starting moving relocating heading leaving living working teaching
studying training joining quitting staying settling""".split())
# What an activity is done as, for its slot key ("7am lengths" is swimming).
ACTIVITY_NOUNS = {"lengths": "swim", "laps": "swim", "jogs": "jog"}
# Words of an activity's name that say when or which, not what ("the nightly journal", "Sunday
# runs", "a new gym").
ACTIVITY_TIME_WORDS = frozenset((*CW.WEEKDAYS, *(d + "s" for d in CW.WEEKDAYS), *"""
weekday weekdays weekend weekends daily nightly weekly monthly morning
mornings evening evenings night nights afternoon afternoons early late lunchtime dawn am pm
regular usual new local introductory beginner beginners advanced online free weekly
""".split()))
# Generic heads after an activity's name ("pottery classes", "run club", "journal thing").
ACTIVITY_GENERIC_HEADS = frozenset("""
thing things stuff habit habits routine routines class classes lesson lessons session sessions
club clubs group groups league practice workout workouts
""".split())
DOUBLING_VERBS = frozenset("swim run jog shop skip dig knit".split())
CONSUMABLES = FOOD | frozenset("""
coffee tea soda pop alcohol wine beer liquor booze sugar candy sweets chocolate meat pork beef
dairy milk cheese gluten bread carbs caffeine snacks chips dessert desserts eggs seafood juice
energy drinks red meat junk food fast food fried food processed food sweet coke cola lager
cider whisky whiskey vodka rum gin espresso latte lattes cappuccino matcha kombucha
""".split()) | frozenset(("red meat", "junk food", "fast food", "fried food", "energy drinks",
                          "spicy food", "processed food"))

# --- the first-person clause: subject, auxiliaries, verb phrase ---------------------------------

# verb phrase -> (family, predicate). Families are handled in offline.py.
VERBS: dict[str, tuple[str, str]] = {}
BE_REQUIRED: set[str] = set()  # phrases written "am …": the auxiliary must be a form of "be"


def _verbs(family: str, predicate: str, phrases: str) -> None:
    for phrase in phrases.split("|"):
        phrase = phrase.strip()
        if phrase.startswith("am "):
            phrase = phrase[3:]
            BE_REQUIRED.add(phrase)
        VERBS[phrase] = (family, predicate)


_verbs("pref", "likes", "gotten into|have gotten into|been getting into|got really into|"
       "love|loves|loved|adore|adores|adored|like|likes|liked|enjoy|enjoys|"
       "enjoyed|prefer|prefers|preferred|am obsessed with|am into|am passionate about|"
       "am crazy about|am addicted to|am a big fan of|am a huge fan of|am a fan of|"
       "am a massive fan of|am a major fan of|am a real fan of|am a total fan of|"
       "am a die-hard fan of|am a diehard fan of|am a lifelong fan of|am a longtime fan of|"
       "am a long-time fan of|am a giant fan of|am a serious fan of|am super into|am so into|"
       "am totally into|am big into|started to like|started to love|started to enjoy|"
       "started to really like|started to really love|started to really enjoy|started liking|"
       "started loving|started enjoying|grown to like|grown to love|grew to like|grew to love|"
       "have come to like|have come to love|came to like|came to love|am starting to like|"
       "am starting to love|am starting to enjoy|am getting into")
_verbs("pref", "dislikes", "hate|hates|hated|dislike|dislikes|disliked|detest|detests|loathe|"
       "can't stand|cannot stand|can not stand|couldn't stand|grown tired of|gotten tired of|"
       "got tired of|am tired of|am sick of|got sick of|am sick and tired of|am done with|"
       "am so done with|am over|lost interest in|have lost interest in|went off|have gone off|"
       "gone off|fell out of love with|am no longer into|no longer enjoy|no longer like")
_verbs("avoid", "avoids", "avoid|avoids|am avoiding|been avoiding|steer clear of|"
       "am steering clear of|stay away from|am staying away from|swore off|have sworn off|"
       "sworn off|am not eating|am not drinking|stopped eating|stopped drinking|quit eating|"
       "quit drinking|gave up eating|gave up drinking|cut out eating|cut out drinking|"
       "given up eating|given up drinking|stopped having|quit having|gave up having|"
       # an obligation the user has taken on: "I've got to stay away from gluten from now on"
       "got to stay away from|have to stay away from|need to stay away from|"
       "must stay away from|got to avoid|have to avoid|need to avoid|must avoid|"
       "can't eat|cannot eat|can't drink|cannot drink|can no longer eat|can no longer drink|"
       # "I've been off sugar for a month", "I'm off the booze" (a food or a drink only)
       "am off|been off|have been off|am completely off|been completely off")
_verbs("live", "lives_in", "live in|lives in|living in|reside in|resides in|residing in|"
       "am based in|am located in|live over in|living up in|living down in|living out in|"
       "living over in|live up in|live down in|live out in")
_verbs("live_past", "lived_in", "lived in|resided in|been living in")
_verbs("move", "lives_in", "moved to|moved back to|relocated to|moved over to|moved out to|"
       "relocated up to|relocated down to|relocated back to|relocated out to|moved up to|"
       "moved down to|moved across to|moved away to|"
       "moved from|relocated from|moved here from")
_verbs("from", "from", "am from|am originally from|come from|comes from|came here from")
_verbs("move", "lives_in", "moved into|moved in to")
_verbs("grew", "grew_up_in", "grew up in|was raised in|born and raised in")
_verbs("grew", "born_in", "was born in")
_verbs("work", "works_at", "work at|work for|works at|works for|working at|working for|"
       "am employed at|am employed by|am employed with|teach at|am teaching at|teaching at")
_verbs("work_past", "worked_at", "worked at|worked for|been working at|been working for")
_verbs("work_start", "works_at", "got a job at|got a job with|got a new job at|"
       "got a new job with|landed a job at|landed a job with|started a new job at|"
       "started a new job with|started a job at|started working at|started working for|"
       "began working at|began working for|accepted a job at|accepted a position at|"
       "accepted an offer from|got hired at|got hired by|was hired at|was hired by|"
       "took a job at|took a job with|took a position at|took a new job at|"
       "got an offer from|got a position at|joined the team at|started my new job at|"
       "started my new role at|started my new position at|started a new role at|"
       "started my job at|started my role at|started my first job at|started my first day at")
_verbs("work_end", "works_at", "quit my job at|quit my job with|quit my job|left my job at|"
       "left my job with|left my job|quit working at|quit working for|stopped working at|"
       "stopped working for|retired from|got laid off from|was laid off from|got laid off|"
       "was laid off|got fired from|was fired from|resigned from|left my position at|"
       "packed in my job at|packed in my job|jacked in my job at|jacked in my job|"
       "been made redundant from|been made redundant at|was made redundant from|"
       "was made redundant at|got made redundant from|got made redundant at|"
       "been made redundant by|was made redundant by|got made redundant by")
_verbs("work_as", "occupation", "work as|working as|am working as|worked as|been working as")
_verbs("study", "studies_at", "study at|studies at|studying at|am enrolled at|go to school at|"
       "go to college at|am at university at")
_verbs("study_past", "studied_at", "studied at|went to school at|went to college at")
_verbs("study_field", "studies", "study|studies|am studying|studying")
_verbs("major", "major", "major in|am majoring in|majoring in|majored in")
_verbs("stop", "does", "stopped|quit|gave up|gave up on|have given up|quit doing|"
       "stopped doing|cut out|given up|given up on|dropped|ditched|packed in|jacked in|"
       "knocked off")
_verbs("cut", "reduces", "cut back on|cut down on|am cutting back on|am cutting down on|"
       "been cutting back on|been cutting down on|trying to cut down on|trying to cut back on|"
       "drink less|eat less|am drinking less|am eating less|been drinking less|been eating less|"
       "trying to drink less|trying to eat less|am trying to drink less|am trying to eat less|"
       "am having less|have less")
_verbs("start", "started", "started|began|took up|taken up|have taken up|got into|started doing")
_verbs("switch", "uses", "switched from|switched to|switched over to|made the switch to|"
       "made the switch from|changed from|changed over to|switched back to")
_verbs("have", "owns_count", "have|has|have got|got|own|owns|now have|currently have|keep|keeps")
_verbs("acquire", "bought", "bought|purchased|adopted|rescued|got a new|just got|brought home|"
       "picked up a new|ended up buying|ended up getting|ended up adopting|went ahead and bought|"
       "finally bought|decided to buy")
_verbs("marry", "marital_status", "got married|got engaged|got divorced|married|"
       "got married to|got engaged to|am engaged to|am married to|got hitched")
_verbs("left", "left", "left")
_verbs("event", "went_to", "went to|went back to|headed to")
_verbs("event", "went_on", "went on")
_verbs("event", "visited", "visited|been to|have been to|checked out|toured")
_verbs("event", "attended", "attended|went to see")
_verbs("event", "finished", "finished|completed|wrapped up")
_verbs("event", "ran", "ran|ran in")
_verbs("event", "joined", "joined|signed up with")
_verbs("event", "took", "took")
_verbs("event", "watched", "watched|saw")
_verbs("event", "read", "read|finished reading")
_verbs("event", "tried", "tried|tried out")
_verbs("event", "cooked", "cooked|baked|made dinner|grilled")
_verbs("event", "booked", "booked|reserved")
_verbs("event", "signed_up_for", "signed up for|registered for|enrolled in|applied for|"
       "applied to")
_verbs("event", "traveled_to", "traveled to|travelled to|flew to|drove to|took a trip to|"
       "went on a trip to|road-tripped to|backpacked through|took a vacation to")
_verbs("event", "returned_from", "returned from|got back from|came back from|am back from|"
       "am just back from|am finally back from|flew back from|drove back from|"
       "have just got back from")
_verbs("event", "met", "met|met up with|caught up with")
_verbs("event", "celebrated", "celebrated")
_verbs("event", "won", "won")
_verbs("event", "volunteered_at", "volunteered at|volunteered for|volunteered with")
_verbs("event", "hosted", "hosted|threw")
_verbs("event", "participated_in", "participated in|competed in|took part in|performed at|"
       "played in")
_verbs("event", "sold", "sold")
_verbs("event", "donated", "donated")
_verbs("event", "learned", "learned|learnt|learned how to|learned to")
_verbs("event", "received", "received|was given|got a gift")
_verbs("event", "ordered", "ordered")
_verbs("event", "upgraded", "upgraded to|upgraded")
_verbs("event", "graduated_from", "graduated from|graduated")
_verbs("event", "stayed_at", "stayed at|stayed in")
_verbs("event", "ate_at", "ate at|had dinner at|had lunch at|had brunch at|dined at")
_verbs("event", "renovated", "renovated|redecorated|remodeled|remodelled|repainted")
_verbs("event", "hiked", "hiked|climbed")
_verbs("event", "passed", "passed")
_verbs("event", "built", "built|planted|painted|knitted|knit")
_verbs("event", "downloaded", "downloaded|installed|subscribed to")
# A promotion names the role held from then on: it competes in the occupation slot.
_verbs("event", "occupation", "got promoted to|got a promotion to|was promoted to|"
       "been promoted to|got bumped up to|was bumped up to|been bumped up to")
# Ongoing activities ("I've been learning Spanish", "I'm currently reading Dune").
_verbs("ongoing", "does", "learning|playing|practicing|practising|doing|training for|"
       "working on|taking up")
_verbs("ongoing", "reading", "reading")
_verbs("ongoing", "uses", "using")
_verbs("drive", "drives", "drive|drives|am driving|been driving")
# Present progressive of an event verb: a plan when a future time is in the clause.
_verbs("prog", "plans", "moving to|moving back to|relocating to|visiting|attending|"
       "traveling to|travelling to|flying to|driving to|heading to|starting|leaving|"
       "getting married|hosting|throwing|running|taking|having|celebrating|meeting|"
       "starting a new job at|starting at")

# Auxiliaries, adverbs and negators allowed between the subject and the verb.
